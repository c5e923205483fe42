/**
 * Writes the local Treasury API's OpenAPI document — the one `GET /public/openapi.json` serves — to a file, from the
 * app itself without starting a server (an in-memory database, one request through `app.request`), for the linters
 * `npm run lint:openapi` runs and for client generators (docs/treasury-api.md, "OpenAPI document").
 *
 * Usage: tsx scripts/openapi.ts <out.json>
 */
import { writeFileSync } from "node:fs";
import { createApp } from "@treasury/api/app";
import { openDatabase } from "@treasury/api/db/client";

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write("usage: tsx scripts/openapi.ts <out.json>\n");
    process.exit(2);
  }
  const database = await openDatabase({ dataDir: "memory" });
  try {
    const res = await createApp({ database }).request("/public/openapi.json");
    if (!res.ok) throw new Error(`GET /public/openapi.json answered ${res.status}`);
    writeFileSync(out, `${JSON.stringify(await res.json(), null, 2)}\n`);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`openapi: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
