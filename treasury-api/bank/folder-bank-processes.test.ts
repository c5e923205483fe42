/**
 * Two processes run the folder bank over one folder at once, as the API processes of `--workers N` do
 * (docs/bank-channels.md "The simulated bank behind a channel"): twelve payment files in the inbox are each received
 * once and answered once — every answer file written by exactly one process, none twice — while the other process
 * finds the bank's lock taken. Real child processes (treasury-api/test/folder-bank-runner.ts), real folders.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildPain001 } from "@treasury/contract/pain001";
import { writeFolderBank } from "./folder-bank";

const RUNNER = fileURLToPath(new URL("../test/folder-bank-runner.ts", import.meta.url));
const IBAN = "NO9386011117947";
const FILES = 12;
const dir = mkdtempSync(path.join(tmpdir(), "treasury-folder-bank-2p-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the runner for `ms` and returns what it printed. */
function runner(ms: number): Promise<{ written: string[]; busy: number; runs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", RUNNER, dir, String(ms)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`runner exited ${code}: ${err}`));
      else resolve(JSON.parse(out.trim().split("\n").pop() ?? "{}"));
    });
  });
}

describe("the folder bank in two processes", () => {
  it("answers every payment file once, each answer written by one process", async () => {
    const inbox = path.join(dir, "inbox");
    const outbox = path.join(dir, "outbox");
    await writeFolderBank(dir, [
      { name: "desk", inboxDir: inbox, outboxDir: outbox, accounts: [{ iban: IBAN, currency: "NOK" }] },
    ]);
    mkdirSync(inbox);
    const today = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < FILES; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
      const { xml } = buildPain001(
        { id, currency: "NOK", requested_execution_date: today, created_at: new Date().toISOString() },
        [
          { amount: "10.00", creditor_name: "Kreditor AS", creditor_iban: "NO8330001234567", end_to_end_id: `P-${i}` },
          { amount: "5.00", creditor_name: "Please REJECT", creditor_iban: "NO8330001234567", end_to_end_id: `R-${i}` },
        ],
        { name: "Alpha AS", iban: IBAN, bic: null },
      );
      writeFileSync(path.join(inbox, `TD${id.replace(/-/g, "")}.xml`), xml);
    }
    const [a, b] = await Promise.all([runner(4_000), runner(4_000)]);
    const all = [...a.written, ...b.written];
    // ack + camt.054 + final pain.002 per file, each written once, by one of the two.
    expect(all).toHaveLength(FILES * 3);
    expect(new Set(all).size).toBe(FILES * 3);
    expect(readdirSync(outbox).sort()).toEqual([...all].sort());
    expect(readdirSync(inbox)).toEqual([]);
    expect(readdirSync(path.join(dir, "state", "desk", "received"))).toHaveLength(FILES);
    // Both ran, and the lock turned one of them away at least once.
    expect(a.runs).toBeGreaterThan(0);
    expect(b.runs).toBeGreaterThan(0);
    expect(a.busy + b.busy).toBeGreaterThan(0);
  }, 60_000);
});
