/**
 * Reading a JSON answer that may be an error (docs/treasury-api.md#errors: `{ error,
 * message, details, request_id }`), shared by the browser's BFF fetch and the
 * server's token manager. Plain code with no dependencies, so that it costs
 * the client bundle nothing.
 */

/** The fields of the one error shape, each present only when the body had it with the right type. */
export interface ErrorBodyFields {
  error?: string;
  message?: string;
  /** Always an object; `{}` when the body had none. */
  details: Record<string, unknown>;
  requestId?: string;
}

/**
 * The body of `res` parsed as JSON, or `undefined` when it is empty or not
 * JSON (a proxy's HTML error page, a cut-off body). Never throws on the body.
 */
export async function readLenientJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Picks the error shape's fields out of any parsed body; wrong types are dropped. */
export function errorBodyFields(body: unknown): ErrorBodyFields {
  const b = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  return {
    ...(typeof b.error === "string" ? { error: b.error } : {}),
    ...(typeof b.message === "string" ? { message: b.message } : {}),
    details:
      typeof b.details === "object" && b.details !== null && !Array.isArray(b.details)
        ? (b.details as Record<string, unknown>)
        : {},
    ...(typeof b.request_id === "string" ? { requestId: b.request_id } : {}),
  };
}
