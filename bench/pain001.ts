/**
 * `npm run bench:pain001` — time to build a pain.001 of 10,000 instructions
 * (the most one batch may carry) with lib/iso20022/pain001.ts.
 *
 *   npm run bench:pain001 -- [--instructions 10000] [--runs 5] [--version pain.001.001.09|pain.001.001.03]
 *
 * Instructions carry Nordic names (so every one is transliterated and noted)
 * and a remittance text. Prints per run the build time and the document size,
 * then the median and the worst; one warm-up run is not counted.
 */
import { parseArgs } from "node:util";
import { buildPain001, PAIN001_VERSIONS, type Pain001Instruction, type Pain001Version } from "../lib/iso20022/pain001";
import { PAIN001_BATCH as batch, PAIN001_DEBTOR as debtor } from "@treasury/test-support/pain001-batch";

const { values } = parseArgs({
  options: {
    instructions: { type: "string", default: "10000" },
    runs: { type: "string", default: "5" },
    version: { type: "string", default: "pain.001.001.09" },
  },
});
const n = Number(values.instructions);
const runs = Number(values.runs);
const version = values.version as Pain001Version;
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(runs) || runs < 1 || !PAIN001_VERSIONS.includes(version)) {
  console.error(
    `usage: npm run bench:pain001 -- [--instructions N] [--runs N] [--version ${PAIN001_VERSIONS.join("|")}]`,
  );
  process.exit(2);
}

const instructions: Pain001Instruction[] = Array.from({ length: n }, (_, i) => ({
  amount: `${(i % 99_991) + 1}.${String(i % 100).padStart(2, "0")}`,
  creditor_name: `Leverandør ${i} Ærøskøbing Skærgård AS`,
  creditor_iban: "NO9386011117947",
  end_to_end_id: `E2E-${String(i).padStart(8, "0")}`,
  remittance: `Faktura ${i} / kundenr. ${i * 7}`,
}));

const times: number[] = [];
let last = buildPain001(batch, instructions, debtor, { version });
for (let r = 0; r < runs; r++) {
  const t0 = performance.now();
  last = buildPain001(batch, instructions, debtor, { version });
  const ms = performance.now() - t0;
  times.push(ms);
  console.log(`run ${r + 1}: ${ms.toFixed(0)} ms, ${(Buffer.byteLength(last.xml) / 1024 / 1024).toFixed(2)} MiB`);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? 0;
console.log(
  `pain.001 ${version}, ${n} instructions: median ${median.toFixed(0)} ms, worst ` +
    `${(times.at(-1) ?? 0).toFixed(0)} ms; ` +
    `CtrlSum ${last.controlSum}, ${last.notes.length} notes, heap ` +
    `${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MiB`,
);
