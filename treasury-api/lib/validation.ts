/**
 * Turns zod issues into the API's validation error (docs/architecture.md#errors:
 * field messages in `details.errors` keyed by field path, e.g.
 * `instructions[3].creditor_iban`).
 */
import type { z } from "zod";
import { fieldPath } from "@treasury/contract/errors";
import { ApiError } from "./errors";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `s` is a UUID string (any case); used on headers, which the route schemas do not parse. */
export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/** Builds the 400 validation error for a failed parse of `target` (body, query, path, header). */
export function validationError(error: z.ZodError, target: string): ApiError {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    (errors[field] ??= []).push(message);
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        add(
          fieldPath([...issue.path, key]),
          target === "query" ? "is not a supported query parameter" : "is not a known field",
        );
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      add(fieldPath(issue.path), "is required");
    } else {
      add(fieldPath(issue.path), issue.message);
    }
  }
  const first = Object.entries(errors)[0];
  const where = target === "json" ? "body" : target === "param" ? "path" : target;
  const message = first
    ? `Invalid ${where}: ${first[0]} ${first[1][0]}${
        Object.keys(errors).length > 1 ? ` (and ` + `${Object.keys(errors).length - 1} more)` : ""
      }`
    : `Invalid ${where}`;
  return new ApiError("validation_error", message, { errors });
}
