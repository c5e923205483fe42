/**
 * PGlite for the unit tests, starting from a ready-made empty cluster.
 *
 * A new PGlite runs `initdb` (a second WebAssembly program) before it can
 * answer, which is most of the seconds a test file spends opening its
 * database. The vitest global setup (`./global-setup.ts`) runs `initdb` once,
 * dumps that fresh cluster (`dumpDataDir`) to a file and names it in
 * {@link TEMPLATE_ENV}; vitest.config.ts resolves `@electric-sql/pglite` to
 * this module for the code under test, so every `new PGlite()` in a test
 * process (the treasury-api's and the dashboard's `openMigratedDatabase`, the
 * servers the tests start in-process) unpacks that dump instead (`loadDataDir`).
 * The cluster it gets is the one `initdb` would have made; migrations, seed
 * and fixtures run on it exactly as before.
 *
 * The template is used only for a database that does not exist yet: in memory,
 * or a data folder without `PG_VERSION` (a reopened folder keeps its data),
 * and only when the caller passes no options of its own. Without the
 * environment variable (e.g. another vitest config) this is plain PGlite.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite as BasePGlite, type PGliteOptions } from "@electric-sql/pglite";

export * from "@electric-sql/pglite";

/** Environment variable naming the dump file (a tar of a fresh, empty PGlite data folder). */
export const TEMPLATE_ENV = "PGLITE_TEMPLATE_TAR";

let template: Blob | null | undefined;

/** The dump named by {@link TEMPLATE_ENV}, read once per process; null when there is none. */
function templateDump(): Blob | null {
  if (template === undefined) {
    const file = process.env[TEMPLATE_ENV];
    template = file && existsSync(file) ? new Blob([readFileSync(file)]) : null;
  }
  return template;
}

/** True when `dataDir` names a database that is not there yet (in memory, or a folder without a cluster). */
function isNew(dataDir: string | undefined): boolean {
  if (dataDir === undefined || dataDir === "" || dataDir.startsWith("memory://")) return true;
  if (dataDir.includes("://")) return false; // idb:// and other backends: leave them alone
  return !existsSync(path.join(dataDir, "PG_VERSION"));
}

/** `PGlite`, with a new database unpacked from the template when there is one (see the module docstring). */
export class PGlite extends BasePGlite {
  constructor(dataDirOrOptions?: string | PGliteOptions, options?: PGliteOptions) {
    const dataDir = typeof dataDirOrOptions === "string" ? dataDirOrOptions : dataDirOrOptions?.dataDir;
    const given = (typeof dataDirOrOptions === "string" ? options : dataDirOrOptions) ?? {};
    const own = Object.keys(given).filter((k) => k !== "dataDir");
    const dump = own.length === 0 && isNew(dataDir) ? templateDump() : null;
    if (dump === null) {
      if (typeof dataDirOrOptions === "string") super(dataDirOrOptions, options);
      else super(dataDirOrOptions);
      return;
    }
    super({ ...(dataDir !== undefined ? { dataDir } : {}), loadDataDir: dump });
  }
}
