/**
 * Checks `withUser` (./route.ts) applies to every request before any route's own schema sees it
 * (docs/security.md, "The dashboard's own input"):
 *
 * - `nulField`: the first string (or object key) holding a NUL character, by field path — PostgreSQL text cannot
 *   hold one, so it is refused as a 400 naming the field instead of failing at the database as a 500;
 * - `readLimitedBody`: the body read with a byte limit, refused from `Content-Length` before reading and counted while
 *   streaming (a missing or lying `Content-Length` is no way around it);
 * - `isJsonContentType`: whether a body is declared as JSON (`application/json` or `…+json`, any parameters).
 */
import { fieldPath } from "@treasury/contract/errors";
import { BffError } from "./errors";

/** Deepest nesting `nulField` looks into; deeper bodies are refused by the route's schema anyway. */
const MAX_DEPTH = 64;

/**
 * The field path (`instructions[3].creditor_name`, `body` for a key or the value itself) of the first string in
 * `value` that holds U+0000, else null. Walks arrays and plain objects up to 64 levels deep; a deeper value is
 * reported at the level where the walk stopped.
 * @param value parsed JSON, a query object or path parameters
 * @param fallback the name of the value itself (`body`, `query`, `path`)
 */
export function nulField(value: unknown, fallback = "body"): string | null {
  const walk = (v: unknown, path: (string | number)[]): (string | number)[] | null => {
    if (typeof v === "string") return v.includes("\u0000") ? path : null;
    if (typeof v !== "object" || v === null) return null;
    if (path.length >= MAX_DEPTH) return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const hit = walk(v[i], [...path, i]);
        if (hit) return hit;
      }
      return null;
    }
    for (const [k, child] of Object.entries(v)) {
      // A NUL in a key: the key cannot be named safely, so the object holding it is named.
      if (k.includes("\u0000")) return path;
      const hit = walk(child, [...path, k]);
      if (hit) return hit;
    }
    return null;
  };
  const hit = walk(value, []);
  return hit ? fieldPath(hit, fallback) : null;
}

/** @throws BffError 400 naming the first field of `value` that holds a NUL character. */
export function refuseNul(value: unknown, fallback: "body" | "query" | "path"): void {
  const field = nulField(value, fallback);
  if (field === null) return;
  const message = "must not contain a NUL character (U+0000)";
  throw new BffError("validation_error", `${field} ${message}`, { errors: { [field]: [message] } });
}

/** The 413 of a body over `max` bytes. */
export function tooLarge(max: number): BffError {
  return new BffError(
    "payload_too_large",
    `The request body is larger than this request accepts (${max.toLocaleString("en")} bytes)`,
    { max_bytes: max },
  );
}

/**
 * @throws BffError 413 when the request declares a `Content-Length` above `max` (nothing is read). A malformed
 * `Content-Length` is left to the streamed count.
 */
export function checkDeclaredLength(headers: Headers, max: number): void {
  const declared = headers.get("content-length");
  if (declared === null || !/^\d+$/.test(declared.trim())) return;
  if (Number(declared.trim()) > max) throw tooLarge(max);
}

/**
 * The whole body of `req` as bytes, at most `max` of them: 413 from `Content-Length` before reading, and 413 (the
 * stream cancelled) as soon as the bytes read pass `max`.
 * @throws BffError 413 over the limit
 */
export async function readLimitedBody(req: Request, max: number): Promise<Uint8Array<ArrayBuffer>> {
  checkDeclaredLength(req.headers, max);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** True for `application/json` and `application/<anything>+json`, with any parameters, in any case. */
export function isJsonContentType(value: string | null): boolean {
  const type = (value ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}
