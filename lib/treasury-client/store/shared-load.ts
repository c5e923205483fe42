/**
 * Single-flight across instances over a `SharedStore`: the value under `key`
 * if one is stored; otherwise one instance loads it while the others wait for
 * it (lock `key#lock` with SET NX PX, then polling the value), each waiting
 * at most `waitMs` before loading on its own. Within one instance, callers
 * are coalesced by the caller's own in-flight map (see UpstreamCache).
 *
 * A load that throws stores nothing (errors are never cached) and releases
 * the lock, so the waiters stop waiting at their next poll and load themselves.
 */
import type { SharedStore } from "./shared-store";

/** What a load yields: the JSON text to share and its lifetime (0: do not store). */
export interface Loaded {
  json: string;
  ttlMs: number;
}

/** Where the answer came from: the store, this caller's load, or another instance's load. */
export type LoadSource = "hit" | "miss" | "coalesced";

export interface SharedLoadOptions {
  /** Lifetime of the lock (the longest a load may hold it), ms. */
  lockMs: number;
  /** Longest wait for another instance's load, ms; then this instance loads too. */
  waitMs: number;
  /** Interval between polls while waiting, ms. */
  pollMs: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export const DEFAULT_SHARED_LOAD: SharedLoadOptions = { lockMs: 20_000, waitMs: 3_000, pollMs: 20 };

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Loads and stores (when `ttlMs` > 0). */
async function loadAndStore(store: SharedStore, key: string, load: () => Promise<Loaded>): Promise<string> {
  const v = await load();
  if (v.ttlMs > 0) await store.set(key, v.json, v.ttlMs);
  return v.json;
}

/**
 * The JSON under `key`, from the store or from `load()` (see the module comment).
 * @throws whatever `load` throws.
 */
export async function sharedLoad(
  store: SharedStore,
  key: string,
  load: () => Promise<Loaded>,
  opts: SharedLoadOptions = DEFAULT_SHARED_LOAD,
): Promise<{ json: string; source: LoadSource }> {
  const cached = await store.get(key);
  if (cached !== undefined) return { json: cached, source: "hit" };
  if (!store.shared) return { json: await loadAndStore(store, key, load), source: "miss" };
  const lockKey = `${key}#lock`;
  const token = await store.lock(lockKey, opts.lockMs);
  if (token) {
    try {
      // Another instance may have stored the value between our read and our lock.
      const late = await store.get(key);
      if (late !== undefined) return { json: late, source: "coalesced" };
      return { json: await loadAndStore(store, key, load), source: "miss" };
    } finally {
      await store.unlock(lockKey, token);
    }
  }
  const waited = await waitForValue(store, key, lockKey, opts);
  if (waited !== undefined) return { json: waited, source: "coalesced" };
  return { json: await loadAndStore(store, key, load), source: "miss" };
}

/** Polls for the value another instance is loading; undefined when it gave up, failed or took too long. */
async function waitForValue(
  store: SharedStore,
  key: string,
  lockKey: string,
  opts: SharedLoadOptions,
): Promise<string | undefined> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? delay;
  const deadline = now() + opts.waitMs;
  while (now() < deadline) {
    await sleep(opts.pollMs);
    const v = await store.get(key);
    if (v !== undefined) return v;
    if (!(await store.isLocked(lockKey))) return store.get(key);
  }
  return undefined;
}
