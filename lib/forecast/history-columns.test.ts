/**
 * The history's columns (docs/forecast.md#speed): `units` reads exactly the strings the format allows, with the
 * value decimal.js gives; columns read from another history are refused.
 */
import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import { columnsOf, historyColumns, units } from "./history-columns";
import type { HistoryTxn } from "./types";

describe("units", () => {
  it("reads decimal strings with at most 6 decimals as decimal.js does", () => {
    let seed = 9;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const strings = [
      "0",
      "-0",
      "7",
      "-1250.5",
      "0.000001",
      "-0.000001",
      "00012.30",
      "2251799813.685247",
      "0000000000000001.5",
    ];
    for (let i = 0; i < 3000; i++)
      strings.push(new Decimal((rand() - 0.5) * 10 ** Math.floor(rand() * 10)).toFixed(Math.floor(rand() * 7)));
    for (const s of strings) expect(units(s)).toBe(new Decimal(s).times(1e6).toNumber());
  });

  it("is NaN for what the format refuses and ±Infinity from 2^51 millionths", () => {
    for (const s of ["", "-", "1.", ".5", "1.0000001", "1e3", "+1", " 1", "1,5", "1.2.3", "--1", "0x10", "NaN"])
      expect(units(s)).toBeNaN();
    expect(units("2251799813.685248")).toBe(Infinity);
    expect(units("-2251799813.685248")).toBe(-Infinity);
    expect(units("-12345678901234567")).toBe(-Infinity);
  });
});

describe("historyColumns", () => {
  it("holds each day and amount; columns of another history are refused", () => {
    const txn = (date: string, amount: string): HistoryTxn => ({
      date,
      company: "c",
      currency: "EUR",
      category: "k",
      amount,
    });
    const h = [txn("2026-11-02", "10.5"), txn("2026-11-02", "-3"), txn("2026-11-03", "abc")];
    const c = historyColumns(h);
    expect(Array.from(c.day)).toEqual([20759, 20759, 20760]);
    expect(Array.from(c.units)).toEqual([10_500_000, -3_000_000, NaN]);
    expect(columnsOf(h, c)).toBe(c);
    expect(Array.from(columnsOf(h).units)).toEqual([10_500_000, -3_000_000, NaN]);
    expect(() => columnsOf(h.slice(1), c)).toThrow("another history");
    expect(() => historyColumns([txn("2026-02-30", "1")])).toThrow();
  });
});
