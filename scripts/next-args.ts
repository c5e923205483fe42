/**
 * The command line `scripts/launch.ts` gives Next: `next <mode> -H <host> -p <port>`, and for `next start` only
 * `--keepAliveTimeout 65000` (idle keep-alive connections stay open 65 s rather than Node's 5 s, so a client that
 * reuses a connection just as the server closes it gets no ECONNRESET on a request it cannot safely repeat;
 * docs/operations.md, "Keep-alive"). `next dev` refuses that flag as an unknown option and would not start.
 *
 * @param mode `dev` or `start`.
 * @param host the bind address, e.g. `127.0.0.1`.
 * @param port the port as a decimal string.
 * @returns the arguments after the `next` binary.
 */
export function nextArgs(mode: "dev" | "start", host: string, port: string): string[] {
  const keepAlive = mode === "start" ? ["--keepAliveTimeout", "65000"] : [];
  return [mode, "-H", host, "-p", port, ...keepAlive];
}
