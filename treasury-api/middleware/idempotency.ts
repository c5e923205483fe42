/**
 * Idempotency of write endpoints (docs/treasury-api.md#idempotency;
 * docs/architecture.md#idempotency). Keys are per OAuth client and kept 24 h. The fingerprint is
 * method, path without trailing slash, company header and canonical JSON body.
 *
 * - same key + same fingerprint: the stored status and body are replayed with
 *   `Idempotent-Replayed: true`;
 * - same key + other fingerprint: 409 conflict;
 * - same key while the first request runs: 409 conflict, details.reason = "in_progress";
 * - a 5xx outcome is not stored, so a retry runs again;
 * - stored response bodies are encrypted (lib/secret-box.ts), since some carry a webhook signing secret.
 *
 * A multipart body is fingerprinted with its boundary replaced, so that the
 * same files sent again (a new boundary each time) are the same request.
 *
 * The claim is one `INSERT … ON CONFLICT DO NOTHING` on the primary key, so a
 * burst of parallel requests with one key runs the handler exactly once.
 */
import { createHash, type Hash } from "node:crypto";
import { HTTPException } from "hono/http-exception";
import { STATEMENT_MAX_FILE_BYTES } from "@treasury/contract/statements";
import type { Context, MiddlewareHandler, Next } from "hono";
import { and, eq, lt, or, sql, type SQL } from "drizzle-orm";
import type { AppEnv } from "../lib/context";
import { ApiError } from "../lib/errors";
import { idempotencyKeys } from "../db/schema";
import { failpoint } from "../lib/failpoints";
import { BoundaryHash, spoolMultipart, type SpooledForm } from "../lib/multipart-spool";
import { apiMetrics } from "../lib/metrics";
import { openSecret, sealSecret } from "../lib/secret-box";

/** JSON with object keys sorted at every level, so key order does not change the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The multipart boundary a Content-Type names, or undefined when the body is not multipart/form-data. */
function multipartBoundary(contentType: string): string | undefined {
  return /^multipart\/form-data\b.*;\s*boundary="?([^";]+)"?/i.exec(contentType)?.[1];
}

/** The fingerprint's hash fed with what precedes the body: method, path without trailing slash, company header. */
function fingerprintHead(method: string, path: string, company: string): Hash {
  const normalizedPath = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return createHash("sha256").update(`${method}\n${normalizedPath}\n${company}\n`);
}

/**
 * The request fingerprint (hex SHA-256 of method, path without trailing slash, company header and canonical body; a
 * multipart body with its boundary replaced by `BOUNDARY`). `rawBody` is the body's text or its bytes: a multipart
 * body is hashed from its bytes as they came, in place (no decoded or joined copy of a 100 MB upload; for a body that
 * is UTF-8 text, the digest its text would give), any other body as UTF-8 text.
 */
export function fingerprintOf(
  method: string,
  path: string,
  company: string,
  rawBody: string | Uint8Array,
  contentType: string,
): string {
  const hash = fingerprintHead(method, path, company);
  const boundary = multipartBoundary(contentType);
  if (boundary) {
    const streamed = new BoundaryHash(hash, boundary);
    streamed.update(typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody);
    return streamed.digest();
  }
  const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  let body = text;
  try {
    body = canonicalJson(JSON.parse(text));
  } catch {
    // Empty or malformed JSON (the handler answers 400 for the latter): the raw text is fingerprinted.
  }
  return hash.update(body).digest("hex");
}

const MAX_KEY_LENGTH = 255;

/** Thrown inside the request transaction to roll back everything the handler wrote. */
class RollbackRequest extends Error {}

type Db = AppEnv["Variables"]["db"];
type Ctx = Context<AppEnv>;

/** One claim of an idempotency key: the row values it writes and the conditions that find its row. */
interface Claim {
  clientId: string;
  key: string;
  fingerprint: string;
  /** ISO 8601 timestamps. `lockedUntil` doubles as this claim's token: a takeover writes another value. */
  now: string;
  lockedUntil: string;
  expiresAt: string;
  /** The key's row, whoever holds it. */
  thisKey: SQL | undefined;
  /** The key's row while this claim holds it (in progress, our token). */
  ourClaim: SQL | undefined;
}

/**
 * The `Idempotency-Key` header's value, checked: 1 to {@link MAX_KEY_LENGTH} visible ASCII characters.
 * @throws ApiError validation_error (400) naming `Idempotency-Key` when absent, blank or malformed
 */
function requiredKey(key: string | undefined): string {
  if (key === undefined || key.trim() === "") {
    throw new ApiError("validation_error", "Idempotency-Key header is required on write requests", {
      errors: { "Idempotency-Key": ["is required"] },
    });
  }
  if (key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError("validation_error", `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`, {
      errors: { "Idempotency-Key": ["is malformed"] },
    });
  }
  return key;
}

/** The claim this request makes at `now`: locked for idempotencyLockSeconds, kept idempotencyRetentionSeconds. */
function newClaim(c: Ctx, clientId: string, key: string, fingerprint: string, now: Date): Claim {
  const config = c.get("config");
  const lockedUntil = new Date(now.getTime() + config.idempotencyLockSeconds * 1000).toISOString();
  const expiresAt = new Date(now.getTime() + config.idempotencyRetentionSeconds * 1000).toISOString();
  const thisKey = and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key));
  const ourClaim = and(thisKey, eq(idempotencyKeys.state, "in_progress"), eq(idempotencyKeys.lockedUntil, lockedUntil));
  return { clientId, key, fingerprint, now: now.toISOString(), lockedUntil, expiresAt, thisKey, ourClaim };
}

/**
 * Claims the key (docs/treasury-api.md#idempotency): one `INSERT … ON CONFLICT DO NOTHING`, its own short commit;
 * when someone holds the key, takes it over if it expired or its in-progress claim was abandoned ("abandoned": its
 * transaction is gone — a live one holds the row lock, so the update waits for it and then finds it done).
 * @returns true when this request now holds the key
 */
async function claimKey(db: Db, claim: Claim): Promise<boolean> {
  const { clientId, key, fingerprint, lockedUntil, expiresAt, now } = claim;
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ clientId, key, fingerprint, state: "in_progress", lockedUntil, expiresAt, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length > 0) return true;
  const takeover = await db
    .update(idempotencyKeys)
    .set({
      fingerprint,
      state: "in_progress",
      lockedUntil,
      expiresAt,
      statusCode: null,
      responseBody: null,
      responseHeaders: null,
      createdAt: now,
    })
    .where(
      and(
        claim.thisKey,
        or(
          lt(idempotencyKeys.expiresAt, now),
          and(eq(idempotencyKeys.state, "in_progress"), lt(idempotencyKeys.lockedUntil, now)),
        ),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return takeover.length > 0;
}

/**
 * Answers a request whose key another request holds: the stored response replayed with `Idempotent-Replayed: true`
 * (set on `c.res`) when the fingerprints match and it is done.
 * @throws ApiError conflict (409), details.reason "payload_mismatch" for another request with the key,
 *   "in_progress" while the first request runs (or its row just vanished)
 */
async function replayStored(c: Ctx, db: Db, claim: Claim): Promise<void> {
  const [row] = await db.select().from(idempotencyKeys).where(claim.thisKey);
  if (!row)
    throw new ApiError("conflict", "The Idempotency-Key is being processed; retry shortly", {
      reason: "in_progress",
    });
  if (row.fingerprint !== claim.fingerprint) {
    throw new ApiError("conflict", "The Idempotency-Key was already used with a different request", {
      reason: "payload_mismatch",
    });
  }
  if (row.state === "in_progress") {
    throw new ApiError("conflict", "A request with this Idempotency-Key is still in progress; retry shortly", {
      reason: "in_progress",
    });
  }
  const headers = new Headers((row.responseHeaders as Record<string, string> | null) ?? {});
  headers.set("Idempotent-Replayed", "true");
  const body =
    row.statusCode === 204 || row.responseBody === null
      ? null
      : openSecret(c.get("config").secretKey, row.responseBody);
  c.res = new Response(body, { status: row.statusCode ?? 200, headers });
  apiMetrics().idempotencyReplays.inc();
}

/**
 * Runs the handler under the claim, in one database transaction (steps 2 and 3 of {@link idempotency}): locks the
 * claimed row first, stores the response (`done`) last; a 4xx from a thrown error rolls back and stores that answer
 * alone; a 5xx or an unmapped error rolls back and forgets the key.
 * @throws ApiError conflict (409, "in_progress") when the claim was taken over; rethrows an unmapped error
 */
async function runClaimed(c: Ctx, next: Next, db: Db, claim: Claim): Promise<void> {
  const { ourClaim } = claim;
  const secretKey = c.get("config").secretKey;
  let outcome = "failed" as "committed" | "client_error" | "failed";
  try {
    await db.transaction(async (tx) => {
      const [mine] = await tx.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(ourClaim).for("update");
      if (!mine)
        throw new ApiError("conflict", "A request with this Idempotency-Key is still in progress; retry shortly", {
          reason: "in_progress",
        });
      c.set("db", tx);
      try {
        await next();
      } finally {
        c.set("db", db);
      }
      const res = c.res;
      if (res.status >= 500) throw new RollbackRequest();
      if (c.error) {
        // A 4xx from a thrown error: whatever the handler wrote before it threw is undone; the answer is stored
        // below.
        outcome = "client_error";
        throw new RollbackRequest();
      }
      const stored = await tx
        .update(idempotencyKeys)
        .set(await storedResponse(res, secretKey))
        .where(ourClaim)
        .returning({ key: idempotencyKeys.key });
      // Cannot happen while the row lock above holds; if it ever did, committing would run the write twice.
      if (stored.length === 0) throw new Error("the idempotency claim was lost during its own transaction");
      failpoint("idempotency.before-commit");
    });
    outcome = "committed";
    failpoint("idempotency.after-commit");
  } catch (err) {
    if (!(err instanceof RollbackRequest)) throw err;
  } finally {
    if (outcome === "client_error") {
      await db
        .update(idempotencyKeys)
        .set(await storedResponse(c.res, secretKey))
        .where(ourClaim);
    } else if (outcome === "failed") {
      // 5xx, a thrown error or a crash of the transaction: forget the key (only our claim) so that a retry runs
      // again.
      await db.delete(idempotencyKeys).where(ourClaim);
    }
  }
}

/**
 * The fingerprint of the request `c` ({@link fingerprintOf}). A multipart upload (statement files, up to 100 MB) is
 * never held in memory: it is streamed once, hashed as it comes and parsed by `spoolMultipart` into temporary files,
 * and Hono's form validator finds the parsed form in its cache (a malformed body: the parse error, answered there as
 * Hono answers it, 400). `upload` is the temporary folder to dispose of when the request ends
 * (docs/bank-files.md "Speed and memory").
 */
async function requestFingerprint(c: Ctx): Promise<{ fingerprint: string; upload?: SpooledForm }> {
  const contentType = c.req.header("content-type") ?? "";
  const company = c.req.header("x-company-id") ?? "";
  const boundary = multipartBoundary(contentType);
  if (!boundary)
    return {
      fingerprint: fingerprintOf(c.req.method, new URL(c.req.url).pathname, company, await c.req.text(), contentType),
    };
  const hash = new BoundaryHash(fingerprintHead(c.req.method, new URL(c.req.url).pathname, company), boundary);
  const upload = await spoolMultipart(c.req.raw.body, contentType, STATEMENT_MAX_FILE_BYTES, (chunk) =>
    hash.update(chunk),
  );
  const form: Promise<FormData> = upload.parseError
    ? Promise.reject(new HTTPException(400, { message: `Malformed FormData request. ${upload.parseError.message}` }))
    : Promise.resolve(upload.form);
  form.catch(() => undefined); // a replay never reads it
  // Hono's body cache holds promises at run time (its type names the values).
  c.req.bodyCache.formData = form as unknown as FormData;
  return { fingerprint: hash.digest(), upload };
}

/**
 * Middleware for every write route. Needs the caller (runs after the scope check).
 *
 * 1. The claim (`in_progress` row, locked until now + idempotencyLockSeconds)
 *    is its own short commit, so that concurrent requests with the key see it.
 * 2. The handler runs inside one database transaction: `c.get("db")` is that
 *    transaction (repositories that open their own transaction get a
 *    savepoint). Its first statement locks the claimed key row, so a takeover
 *    waits for this transaction and then finds the key done; its last one
 *    stores the response (`done`). The handler's writes, the outbox rows they
 *    enqueue and the stored response commit together or not at all.
 * 3. A thrown error that maps to 4xx rolls the handler's writes back and
 *    stores that answer on its own (nothing was written). A 5xx or an
 *    unmapped error rolls back and forgets the key, so a retry runs again.
 *
 * On PGlite (one connection) the transaction holds the database for the
 * handler's duration; other requests and the workers queue behind it, which
 * is safe because nothing inside a handler waits for another request.
 *
 * Errors: 401 authentication_failed without a caller; 400 validation_error for the header; 409 conflict (see
 * {@link replayStored}, {@link runClaimed}).
 */
export function idempotency(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    if (!caller) throw new ApiError("authentication_failed", "Authorization: Bearer token is required");
    const key = requiredKey(c.req.header("idempotency-key"));
    const db = c.get("db");
    const { fingerprint, upload } = await requestFingerprint(c);
    try {
      const claim = newClaim(c, caller.clientId, key, fingerprint, new Date());
      if (!(await claimKey(db, claim))) return await replayStored(c, db, claim);
      await runClaimed(c, next, db, claim);
    } finally {
      await upload?.dispose();
    }
  };
}

/**
 * The `done` state with what a replay answers: status, body (encrypted: a webhook create or rotation answers with
 * its signing secret) and the content-type and location headers.
 */
async function storedResponse(res: Response, secretKey: Buffer): Promise<Partial<typeof idempotencyKeys.$inferInsert>> {
  const body = sealSecret(secretKey, res.status === 204 ? "" : await res.clone().text());
  const keep: Record<string, string> = {};
  const contentType = res.headers.get("content-type");
  if (contentType) keep["content-type"] = contentType;
  const location = res.headers.get("location");
  if (location) keep.location = location;
  return { state: "done", statusCode: res.status, responseBody: body, responseHeaders: keep, lockedUntil: null };
}

/** Deletes expired keys (housekeeping; safe to call any time). */
export async function pruneIdempotencyKeys(db: AppEnv["Variables"]["db"]): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`));
}
