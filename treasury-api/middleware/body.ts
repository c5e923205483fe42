/**
 * The body checks of write routes, before the route's schema validates the
 * body: JSON or multipart content type (415), and what an empty body means.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../lib/context";
import { ApiError } from "../lib/errors";

/** Refuses a write whose body is not `multipart/form-data` (415). */
export function multipartBodyOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const type = c.req.header("content-type") ?? "";
    if (!/^multipart\/form-data\b/i.test(type)) {
      throw new ApiError("unsupported_media_type", "The request body must be multipart/form-data", {
        content_type: type || null,
      });
    }
    await next();
  };
}

/**
 * How a write route takes its body: `required`, `optional` (approve, confirm, ...) or `none` (submit, test, delete).
 */
export type BodyRule = "required" | "optional" | "none";

/**
 * The body rules of every write, before the body is validated:
 * - a body must be JSON (415 otherwise);
 * - an empty body (no bytes, or only whitespace) means "no body" whatever the
 *   Content-Type says: a required body answers 400 "is required"; an optional
 *   one is treated as absent, exactly as without Content-Type;
 * - a route without a body accepts none, or an empty JSON object `{}`.
 */
export function jsonBody(rule: BodyRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const length = c.req.header("content-length");
    const type = c.req.header("content-type") ?? "";
    // Content-Length / Transfer-Encoding announce a body; a request built in-process may carry one without them.
    const announced = (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
    const text = type || announced || c.req.raw.body !== null ? await c.req.text() : "";
    if ((text.length > 0 || rule === "required") && !/^application\/(.+\+)?json\b/i.test(type)) {
      throw new ApiError(
        "unsupported_media_type",
        "The request body must be JSON with Content-Type: application/json",
        { content_type: type || null },
      );
    }
    if (text.trim() === "") {
      if (rule === "required")
        throw new ApiError("validation_error", "The request body is required", { errors: { body: ["is required"] } });
      if (type) {
        // The body validator would parse "" as JSON; without Content-Type it takes the body as absent.
        const headers = new Headers(c.req.raw.headers);
        headers.delete("content-type");
        c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers });
      }
    } else if (rule === "none" && !isEmptyJsonObject(text)) {
      throw new ApiError(
        "validation_error",
        "This operation takes no request body (an empty JSON object {} is accepted)",
        { errors: { body: ["must be empty or {}"] } },
      );
    }
    await next();
  };
}

function isEmptyJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
  } catch {
    return false;
  }
}
