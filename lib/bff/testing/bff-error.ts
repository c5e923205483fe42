/** Test-only: the BffError a promise rejects with (docs/testing.md). */
import { BffError } from "../errors";

/**
 * Awaits `p` and returns the `BffError` it rejects with.
 * @throws the rejection itself when it is not a BffError; an Error when `p` resolves
 */
export async function errorOf(p: Promise<unknown>): Promise<BffError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof BffError) return err;
    throw err;
  }
  throw new Error("expected a rejection");
}
