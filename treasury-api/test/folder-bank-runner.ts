/**
 * A process that runs the folder bank (treasury-api/bank/folder-bank.ts) over the bank kept in a folder for a while,
 * as each API process of `--workers N` does (docs/bank-channels.md "The simulated bank behind a channel"):
 *
 *   tsx treasury-api/test/folder-bank-runner.ts <bank folder> <milliseconds>
 *
 * Runs `runFolderBankOnce` at the `instant` pace back to back until the time is up, then prints one JSON line: the
 * answer files this process wrote and how many runs found the bank busy (another process held its lock).
 * Used by bank/folder-bank-processes.test.ts.
 */
import { readFolderBank, runFolderBankOnce } from "../bank/folder-bank";

const [dir, ms] = process.argv.slice(2);
const bank = dir ? await readFolderBank(dir) : null;
if (!bank) {
  process.stderr.write("usage: folder-bank-runner.ts <bank folder with bank.json> <milliseconds>\n");
  process.exit(2);
}
const written: string[] = [];
let busy = 0;
let runs = 0;
const until = Date.now() + Number(ms ?? "3000");
while (Date.now() < until) {
  const r = await runFolderBankOnce(bank, { speed: "instant" });
  runs++;
  if (r.busy) busy++;
  written.push(...r.written);
  await new Promise((resolve) => setTimeout(resolve, 5));
}
process.stdout.write(`${JSON.stringify({ written, busy, runs })}\n`);
