/**
 * Cleanup registry for benchmarks: temp clusters, servers and folders are
 * removed at the end, on an error and on Ctrl-C / SIGTERM, last registered
 * first.
 */
const tasks: { name: string; run: () => Promise<void> | void }[] = [];
let installed = false;

/** Registers a cleanup; returns a function that runs it now (once) and unregisters it. */
export function onCleanup(name: string, run: () => Promise<void> | void): () => Promise<void> {
  const task = { name, run };
  tasks.push(task);
  installSignalHandlers();
  return async () => {
    const i = tasks.indexOf(task);
    if (i < 0) return;
    tasks.splice(i, 1);
    await task.run();
  };
}

/** Runs every pending cleanup, newest first; reports (and survives) failures. */
export async function runCleanups(): Promise<void> {
  while (tasks.length) {
    const task = tasks.pop();
    if (!task) break;
    try {
      await task.run();
    } catch (err) {
      process.stderr.write(`cleanup "${task.name}" failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: cleaning up…\n`);
      void runCleanups().finally(() => process.exit(130));
    });
  }
}
