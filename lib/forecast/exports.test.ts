/**
 * The forecast's CSV exports (lib/forecast/exports.ts): the forecast rows carry the rate, its date and the amount
 * in the reporting currency (empty without a rate); the comparison marks each case's lowest day and lists the rates
 * each case used, a scenario's own rate included. The XLSX exports, read back with exceljs, carry the same rows
 * with typed cells (exact money as numbers, a too-long amount as text, dates as dates) and a "Rates" sheet.
 */
import ExcelJS from "exceljs";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { exactNumber } from "../csv/xlsx";
import { comparisonCsv, comparisonXlsx, forecastCsv, forecastXlsx } from "./exports";
import { balances } from "./scenario";

const parse = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

const row = (currency: string, amount: string) => ({
  start: "2026-12-01",
  end: "2026-12-07",
  company: "c1",
  currency,
  category: "=cmd",
  amount,
  p10: amount,
  p90: amount,
});

async function readXlsx(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes.buffer as ArrayBuffer);
  return wb;
}

const values = (ws: ExcelJS.Worksheet | undefined, n: number) => (ws?.getRow(n).values as unknown[]).slice(1);

describe("forecastCsv", () => {
  it("converts each row at its currency's rate and leaves a currency without one empty", () => {
    const out = parse(
      forecastCsv([row("USD", "-100.005"), row("EUR", "5"), row("JPY", "1")], "EUR", {
        USD: { rate: "0.9", date: "2026-11-26" },
      }),
    );
    expect(out.map((r) => [r.currency, r.rate, r.rate_date, r.amount_reporting])).toEqual([
      ["USD", "0.9", "2026-11-26", "-90.00"],
      ["EUR", "1", "", "5.00"],
      ["JPY", "", "", ""],
    ]);
    // A text that a spreadsheet would run as a formula is escaped.
    expect(out[0]?.category).toBe("'=cmd");
  });
});

describe("comparisonCsv", () => {
  it("marks each case's lowest day and lists its rates", () => {
    const args = {
      openings: [{ company: "A", currency: "EUR", amount: "100" }],
      from: "2027-01-01",
      to: "2027-01-03",
      reportingCurrency: "EUR",
    };
    const flow = (date: string, amount: string) => ({
      date,
      company: "A",
      currency: "EUR",
      category: "x",
      amount,
      p10: amount,
      p90: amount,
      source: "manual" as const,
    });
    const base = balances({ ...args, flows: [flow("2027-01-02", "-50")], fx: {} });
    const later = balances({ ...args, flows: [flow("2027-01-03", "-80")], fx: {} });
    const out = parse(
      comparisonCsv(
        [
          { name: "Base case", balances: base, fx: { USD: { rate: "0.9", date: "2026-12-31" } } },
          { name: "Later", balances: later, fx: { USD: { rate: "1.1", date: "scenario" } } },
        ],
        "EUR",
      ),
    );
    expect(out.map((r) => [r.case, r.date, r.balance, r.lowest])).toEqual([
      ["Base case", "2027-01-01", "100.00", ""],
      ["Base case", "2027-01-02", "50.00", "yes"],
      ["Base case", "2027-01-03", "50.00", ""],
      ["Later", "2027-01-01", "100.00", ""],
      ["Later", "2027-01-02", "100.00", ""],
      ["Later", "2027-01-03", "20.00", "yes"],
    ]);
    expect(out[0]?.rates).toBe("USD 0.9 (2026-12-31)");
    expect(out[3]?.rates).toBe("USD 1.1 (scenario)");
    expect(out[5]?.lowest_balance).toBe("20.00");
  });
});

describe("exactNumber", () => {
  it("gives a number only when it reads back as the same decimal", () => {
    expect(exactNumber("-1250.50")).toBe(-1250.5);
    expect(exactNumber("0.1")).toBe(0.1);
    expect(exactNumber("999999999999.999")).toBe(999999999999.999);
    // 16 and 17 significant digits: more than Excel keeps, the cents would change.
    expect(exactNumber("90071992547409.93")).toBeNull();
    expect(exactNumber("12345678901234.57")).toBeNull();
    expect(exactNumber("1234567890123.456789")).toBeNull();
    expect(exactNumber("1e5")).toBeNull();
    expect(exactNumber("")).toBeNull();
  });
});

describe("forecastXlsx", () => {
  it("writes the forecast rows with typed cells and a Rates sheet", async () => {
    const big = "90071992547409.93";
    const wb = await readXlsx(
      await forecastXlsx([row("USD", "-100.005"), row("EUR", big), row("JPY", "1")], "EUR", {
        USD: { rate: "0.9", date: "2026-11-26" },
      }),
    );
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Forecast", "Rates"]);
    const ws = wb.getWorksheet("Forecast");
    expect(values(ws, 1)).toEqual([
      "start",
      "end",
      "company_id",
      "currency",
      "category",
      "amount",
      "p10",
      "p90",
      "reporting_currency",
      "rate",
      "rate_date",
      "amount_reporting",
    ]);
    const usd = values(ws, 2);
    expect(usd[0]).toEqual(new Date("2026-12-01T00:00:00Z"));
    expect(usd.slice(2, 6)).toEqual(["c1", "USD", "=cmd", -100.005]);
    expect(usd.slice(8)).toEqual(["EUR", 0.9, new Date("2026-11-26T00:00:00Z"), -90]);
    expect(ws?.getCell("F2").numFmt).toBe("#,##0.00;-#,##0.00");
    expect(ws?.getCell("E2").formula).toBeUndefined();
    // 16 significant digits would not survive a double: the exact string is kept.
    expect(values(ws, 3)[5]).toBe(big);
    expect(values(ws, 3)[11]).toBe(big);
    // No rate: empty cells.
    expect(["J4", "K4", "L4"].map((a) => ws?.getCell(a).value)).toEqual([null, null, null]);
    const rates = wb.getWorksheet("Rates");
    expect(values(rates, 1)).toEqual(["currency", "reporting_currency", "rate", "rate_date"]);
    expect([2, 3, 4].map((n) => values(rates, n))).toEqual([
      ["EUR", "EUR", 1],
      ["JPY", "EUR"],
      ["USD", "EUR", 0.9, new Date("2026-11-26T00:00:00Z")],
    ]);
  });
});

describe("comparisonXlsx", () => {
  it("writes one row per case and day and each case's rates, a scenario's own rate kept as text-dated", async () => {
    const args = {
      openings: [{ company: "A", currency: "EUR", amount: "100" }],
      from: "2027-01-01",
      to: "2027-01-02",
      reportingCurrency: "EUR",
      flows: [],
      fx: {},
    };
    const wb = await readXlsx(
      await comparisonXlsx(
        [
          { name: "Base case", balances: balances(args), fx: { USD: { rate: "0.9", date: "2026-12-31" } } },
          { name: "Later", balances: balances(args), fx: { USD: { rate: "1.1", date: "scenario" } } },
        ],
        "EUR",
      ),
    );
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Comparison", "Rates"]);
    const ws = wb.getWorksheet("Comparison");
    expect(values(ws, 1).slice(0, 3)).toEqual(["case", "date", "balance"]);
    expect(ws?.rowCount).toBe(5);
    expect(values(ws, 4).slice(0, 3)).toEqual(["Later", new Date("2027-01-01T00:00:00Z"), 100]);
    const rates = wb.getWorksheet("Rates");
    expect([2, 3].map((n) => values(rates, n))).toEqual([
      ["Base case", "USD", "EUR", 0.9, new Date("2026-12-31T00:00:00Z")],
      ["Later", "USD", "EUR", 1.1, "scenario"],
    ]);
  });
});
