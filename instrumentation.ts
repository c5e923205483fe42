/**
 * Runs once when the Next server starts: parse the configuration so that a
 * bad or missing variable stops the server with a message naming it
 * (issue 4 §2), instead of failing on the first request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./lib/server/check-env");
}
