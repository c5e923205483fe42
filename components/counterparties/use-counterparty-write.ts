"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { BffRequestError, callBff } from "@/components/data/bff-fetch";
import type { Endpoint, PathParams } from "@/lib/bff/endpoint";
import { useOperationKey } from "@/components/data/operation-key";
import { counterpartyQueries } from "./counterparty-queries";

/**
 * One write of the counterparties page (create, bank-details change, verify,
 * reject, disable, import): POST `endpoint` (its path `params`) with the dialog's Idempotency-Key (kept
 * across retries of the same dialog), then refresh the lists and details.
 * `mutate` takes the body, or a `BodyWithHeaders` when the write carries
 * extra headers (a passkey step-up proof).
 */
export function useCounterpartyWrite<P extends string, R>(
  endpoint: Endpoint<"POST", P, R>,
  params: PathParams<P> | undefined,
  onDone: (out: R) => void,
) {
  const qc = useQueryClient();
  const op = useOperationKey();
  return useMutation({
    mutationFn: (input: unknown) => {
      const { body, headers } = withHeaders(input);
      return callBff(endpoint, { params, body, headers, idempotencyKey: op.key });
    },
    onSuccess: (out) => {
      op.renew();
      void counterpartyQueries.invalidateAll(qc);
      onDone(out);
    },
  });
}

/** A write's body with extra request headers (a passkey step-up proof); pass it to `mutate` instead of the body. */
export class BodyWithHeaders {
  constructor(
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {}
}

function withHeaders(input: unknown): { body: unknown; headers: Record<string, string> | undefined } {
  return input instanceof BodyWithHeaders ? input : { body: input, headers: undefined };
}

/** The server's per-field messages of a 400 / 409 (`details.errors`), keyed by field. */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof BffRequestError)) return {};
  const errors = err.details.errors;
  if (!errors || typeof errors !== "object") return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors as Record<string, unknown>))
    if (Array.isArray(v) && typeof v[0] === "string") out[k] = v[0];
  return out;
}
