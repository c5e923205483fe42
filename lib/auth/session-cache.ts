/**
 * A few seconds' memory of who a session cookie belongs to, so that the BFF
 * does not decrypt the session JWT (next-auth derives its key with HKDF and
 * re-encrypts the cookie on every read) and read the user's row on every
 * call of a page that makes several.
 *
 * - Keyed by a SHA-256 of the session cookie(s), never the token itself.
 * - Only a session that stood when it was read is kept (signed in under the
 *   user's current session version, user enabled); for at most `ttlMs`
 *   (5 s). After that the JWT and the user row are read again, so a session
 *   ended elsewhere (sign-out, disabling, a change of roles, companies or
 *   password, on another instance or by the CLI) stops working within 5 s.
 * - Ending a user's sessions in this process forgets their entries at once
 *   (`forgetUser`, called by the user store), so a sign-out here takes effect
 *   on the very next request.
 * - The absolute session lifetime is checked on every hit.
 */
import { createHash } from "node:crypto";
import type { DashboardUser } from "../db/users";
import { sessionCurrent } from "./session-rules";

/** The session claims the rules need: version at sign-in, sign-in time (epoch seconds). */
export interface SessionClaims {
  sv: number;
  authAt: number;
}

/** A session read in full: its claims and the user row (with the user's current session version). */
export interface LoadedSession {
  session: SessionClaims;
  user: DashboardUser & { sessionVersion: number };
}

interface Entry extends LoadedSession {
  /** Epoch ms when it was read. */
  at: number;
}

/** next-auth's session cookie, plain or `__Secure-` / `__Host-` prefixed, possibly split in `.0`, `.1`… chunks. */
const SESSION_COOKIE = /^(__Secure-|__Host-)?next-auth\.session-token(\.\d+)?$/;

/**
 * The cache key of a request's session cookies (hex SHA-256 of their names and values), or null when the
 * request carries none (then there is no session to read).
 */
export function sessionKey(cookies: readonly { name: string; value: string }[]): string | null {
  const parts = cookies
    .filter((c) => SESSION_COOKIE.test(c.name))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => `${c.name}=${c.value}`);
  if (parts.length === 0) return null;
  return createHash("sha256").update(parts.join("; ")).digest("hex");
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  /** @param opts.ttlMs how long a read session is trusted (ms, default 5 000); `now` injectable for tests. */
  constructor(opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
    this.ttlMs = opts.ttlMs ?? 5_000;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /**
   * The enabled user of the session under `key`, or null when it has ended: from the cache while the entry is
   * younger than `ttlMs`, else from `load()` (JWT decode and user row), whose answer is kept when it stands.
   * @param lifetimeHours the absolute session lifetime
   * @param idleMinutes the idle timeout (omitted: none)
   */
  async user(
    key: string,
    load: () => Promise<LoadedSession | null>,
    lifetimeHours: number,
    idleMinutes?: number,
  ): Promise<DashboardUser | null> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && t - hit.at < this.ttlMs) {
      return sessionCurrent(hit.session, hit.user, t, lifetimeHours, idleMinutes) ? hit.user : null;
    }
    if (hit) this.entries.delete(key);
    const loaded = await load();
    if (!loaded || loaded.user.disabled || !sessionCurrent(loaded.session, loaded.user, t, lifetimeHours, idleMinutes))
      return null;
    this.entries.set(key, { ...loaded, at: t });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    return loaded.user;
  }

  /** Forgets every cached session of `userId` (its sessions were just ended or its rights changed). */
  forgetUser(userId: string): void {
    for (const [k, e] of this.entries) if (e.user.id === userId) this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }
}

const g = globalThis as typeof globalThis & { __sessionCache?: SessionCache };

/** The process's session cache. */
export function sessionCache(): SessionCache {
  g.__sessionCache ??= new SessionCache();
  return g.__sessionCache;
}
