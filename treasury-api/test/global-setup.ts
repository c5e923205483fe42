/**
 * vitest global setup: the PGlite template of `./pglite-template.ts`, a dump of
 * a fresh empty cluster made once per PGlite version and kept in
 * `node_modules/.cache/pglite-template/` (so a second run does not pay for
 * `initdb` at all). Its path goes to the test processes in the
 * `PGLITE_TEMPLATE_TAR` environment variable (set here, before vitest starts them),
 * and `NODE_OPTIONS` gains `--import` of `./pglite-template-hooks.mjs`, so that the
 * Node processes the tests start use the template too.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { TEMPLATE_ENV } from "./pglite-template";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The installed PGlite's version (the template is valid for that version only). */
function pgliteVersion(): string {
  const pkg = path.join(ROOT, "node_modules", "@electric-sql", "pglite", "package.json");
  return (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
}

/** Makes (or finds) the template and exports its path. */
export default async function setup(): Promise<void> {
  const dir = path.join(ROOT, "node_modules", ".cache", "pglite-template");
  const file = path.join(dir, `pglite-${pgliteVersion()}-empty.tar`);
  if (!existsSync(file)) {
    const pg = new PGlite();
    await pg.waitReady;
    const dump = await pg.dumpDataDir("none");
    await pg.close();
    mkdirSync(dir, { recursive: true });
    // Written under a temporary name and renamed, so that a parallel run never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  process.env[TEMPLATE_ENV] = file;
  const hooks = `--import=${pathToFileURL(path.join(ROOT, "treasury-api", "test", "pglite-template-hooks.mjs")).href}`;
  const options = process.env.NODE_OPTIONS ?? "";
  if (!options.includes(hooks)) process.env.NODE_OPTIONS = `${options} ${hooks}`.trim();
}
