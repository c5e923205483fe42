"use client";

import { useRef } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import type { WebhookEndpoint, WebhookPatch } from "@treasury/contract";
import type { BffPage } from "@/lib/views/bff-page";
import { callBff } from "@/components/data/bff-fetch";
import { webhooksEndpoints } from "@/lib/bff/areas/webhooks/endpoints";
import { RowKeys } from "@/components/data/operation-key";
import { errorText } from "@/components/data/error-text";
import { webhookQueries } from "./webhook-queries";

export type WebhookAction =
  { kind: "toggle"; active: boolean } | { kind: "rotate" } | { kind: "test" } | { kind: "delete" };

/**
 * The row actions of the webhook admin: activate or
 * deactivate (optimistic, rolled back on refusal), rotate, test, delete.
 * Each (endpoint, action) keeps its Idempotency-Key until it succeeds, so a
 * retry after a failure is the same operation.
 */
export function useWebhookAction(onSecret: (secret: string) => void) {
  const qc = useQueryClient();
  const keys = useRef(new RowKeys());
  const listKey = webhookQueries.list().queryKey;
  return useMutation({
    mutationFn: async ({ endpoint, action }: { endpoint: WebhookEndpoint; action: WebhookAction }) => {
      const slot = `${endpoint.id}:${action.kind}${action.kind === "toggle" ? String(action.active) : ""}`;
      const idempotencyKey = keys.current.get(slot);
      const params = { id: endpoint.id };
      let out: unknown;
      if (action.kind === "delete") out = await callBff(webhooksEndpoints.remove, { params, idempotencyKey });
      else if (action.kind === "test") out = await callBff(webhooksEndpoints.test, { params, idempotencyKey });
      else {
        const body: WebhookPatch = action.kind === "rotate" ? { rotate_secret: true } : { active: action.active };
        out = await callBff(webhooksEndpoints.change, { params, body, idempotencyKey });
      }
      keys.current.clear(slot);
      return out;
    },
    onMutate: async ({ endpoint, action }) => {
      await qc.cancelQueries({ queryKey: listKey });
      const before = qc.getQueryData<BffPage<WebhookEndpoint>>(listKey);
      if (before && (action.kind === "toggle" || action.kind === "delete")) {
        const items =
          action.kind === "delete"
            ? before.items.filter((e) => e.id !== endpoint.id)
            : before.items.map((e) => (e.id === endpoint.id ? { ...e, active: action.active } : e));
        qc.setQueryData(listKey, { ...before, items });
      }
      return { before };
    },
    onError: (err, { action }, c) => {
      if (c?.before) qc.setQueryData(listKey, c.before);
      toast.error(errorText(err, action.kind === "test" ? "The test event" : "The change"));
    },
    onSuccess: (out, { endpoint, action }) => {
      if (
        action.kind === "rotate" &&
        typeof out === "object" &&
        out !== null &&
        "secret" in out &&
        typeof out.secret === "string"
      )
        onSecret(out.secret);
      else if (action.kind === "test") {
        const code = typeof out === "object" && out !== null && "last_status_code" in out ? out.last_status_code : null;
        toast.success(`Test event sent to ${endpoint.url}${code ? ` — answered ${String(code)}` : ""}.`);
        void qc.invalidateQueries({ queryKey: webhookQueries.deliveries(endpoint.id).queryKey });
      } else
        toast.success(
          action.kind === "delete"
            ? "Endpoint deleted."
            : action.kind === "toggle"
              ? action.active
                ? "Endpoint activated."
                : "Endpoint deactivated."
              : "Done.",
        );
    },
    onSettled: () => qc.invalidateQueries({ queryKey: listKey }),
  });
}
