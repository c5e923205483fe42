"use client";

import { useCallback, useState } from "react";

/**
 * One Idempotency-Key per logical operation (every BFF write carries one):
 * created when the form or dialog opens, kept across retries of that
 * operation (so a double click or a retry after a network failure never
 * creates a second effect), and replaced with `renew()` only once the
 * operation has succeeded or the user starts a new one.
 * @returns `{ key, renew }` — `key` is a UUID string.
 */
export function useOperationKey(): { key: string; renew: () => void } {
  const [key, setKey] = useState(() => crypto.randomUUID());
  const renew = useCallback(() => setKey(crypto.randomUUID()), []);
  return { key, renew };
}

/**
 * Keys for a set of per-row operations (bulk approve, bulk confirm): one
 * UUID per row id, stable until `clear(id)` after the row's success, so that
 * retrying a bulk action that failed for some rows reuses each row's key.
 */
export class RowKeys {
  private readonly keys = new Map<string, string>();
  /** The row's key, created on first use. */
  get(id: string): string {
    let k = this.keys.get(id);
    if (!k) {
      k = crypto.randomUUID();
      this.keys.set(id, k);
    }
    return k;
  }
  /** Forgets the row's key after its operation succeeded. */
  clear(id: string): void {
    this.keys.delete(id);
  }
}
