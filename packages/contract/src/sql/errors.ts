/**
 * PostgreSQL error codes seen through drizzle, on both drivers (node-postgres
 * and PGlite). drizzle wraps the driver's error and keeps it in `cause`, so
 * the code is looked for along the `cause` chain.
 */

/** SQLSTATE 23505: a unique index or constraint refused the row. */
const UNIQUE_VIOLATION = "23505";

/** True when `err`, or an error it wraps in `cause`, is a PostgreSQL unique violation. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}
