/**
 * The template-backed PGlite of `./pglite-template.ts` for the processes the
 * unit tests start (the treasury-api CLI, crash-test servers, `npm run fx`):
 * the vitest global setup puts `--import=<this file>` in NODE_OPTIONS, so
 * every Node process started from a test loads it first. In a process that
 * runs TypeScript through tsx (all of those do) it registers a module
 * resolve hook that answers `@electric-sql/pglite` with `./pglite-template.ts`
 * (except for that module's own import of the real one); in any other Node
 * process it does nothing.
 */
import { register } from "node:module";
import process from "node:process";
import { URL } from "node:url";
import { isMainThread } from "node:worker_threads";

const TEMPLATE_MODULE = new URL("./pglite-template.ts", import.meta.url).href;

const usesTsx = () => [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((arg) => arg.includes("tsx"));

if (isMainThread && usesTsx()) register(import.meta.url);

/**
 * Node's `resolve` hook: `@electric-sql/pglite` becomes the template-backed module.
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "@electric-sql/pglite" && context.parentURL && context.parentURL !== TEMPLATE_MODULE)
    return { url: TEMPLATE_MODULE, shortCircuit: true };
  return nextResolve(specifier, context);
}
