"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { WEBHOOK_EVENT_TYPES, WebhookPatch, type WebhookEndpoint } from "@treasury/contract";
import { callBff } from "@/components/data/bff-fetch";
import { webhooksEndpoints } from "@/lib/bff/areas/webhooks/endpoints";
import { useOperationKey } from "@/components/data/operation-key";
import { Modal } from "@/components/ui/dialog";
import { errorText } from "@/components/data/error-text";
import { webhookQueries } from "./webhook-queries";
import { DialogFooter } from "@/components/ui/dialog-footer";

/** The contract's endpoint fields, both required in this form. */
const Form = WebhookPatch.pick({ url: true, events: true }).required();
type FormValues = { url: string; events: string[] };

/**
 * Create or edit an endpoint: URL and event kinds, checked
 * with the contract schema. Creating answers with the signing secret, which
 * `onCreated` shows once. One Idempotency-Key per opened dialog.
 */
export function WebhookFormDialog({
  endpoint,
  onCreated,
  onClose,
}: {
  endpoint: WebhookEndpoint | null;
  onCreated: (e: WebhookEndpoint & { secret: string }) => void;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const op = useOperationKey();
  const { register, handleSubmit, formState } = useForm<FormValues>({
    resolver: zodResolver(Form) as never,
    mode: "onChange",
    defaultValues: { url: endpoint?.url ?? "", events: endpoint?.events ?? ["payment.status.updated"] },
  });
  const m = useMutation({
    mutationFn: (v: FormValues) =>
      endpoint
        ? callBff(webhooksEndpoints.change, {
            params: { id: endpoint.id },
            body: v,
            idempotencyKey: op.key,
          })
        : callBff(webhooksEndpoints.create, {
            body: { ...v, active: true },
            idempotencyKey: op.key,
          }),
    onSuccess: (e) => {
      void webhookQueries.invalidateAll(qc);
      if (!endpoint && "secret" in e && typeof e.secret === "string") onCreated({ ...e, secret: e.secret });
      else toast.success("Endpoint saved.");
      onClose();
    },
    onError: (err) => toast.error(errorText(err, "Saving the endpoint")),
  });
  const urlErr = formState.errors.url?.message;
  const evErr = formState.errors.events?.message ?? formState.errors.events?.root?.message;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !m.isPending && onClose()}
      title={endpoint ? "Edit endpoint" : "New webhook endpoint"}
      testId="webhook-form"
      description={
        "Deliveries are signed (X-Service-Signature, HMAC-SHA256) and retried with backoff until the " +
        "endpoint answers 2xx."
      }
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={m.isPending}
          variant="primary"
          onAct={() => void handleSubmit((v) => m.mutate(v))()}
          testId="save-webhook"
        >
          {m.isPending ? "Saving…" : endpoint ? "Save" : "Create endpoint"}
        </DialogFooter>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void handleSubmit((v) => m.mutate(v))();
        }}
        className="space-y-4"
        noValidate
      >
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          URL
          <input
            {...register("url")}
            type="url"
            placeholder="https://example.com/webhooks/treasury"
            className={`h-8 rounded-md border px-2 font-mono text-xs ${urlErr ? "border-red-500" : "border-slate-300"}`}
            aria-invalid={urlErr ? true : undefined}
            data-testid="webhook-url"
          />
          {urlErr && <span className="font-normal text-red-700">URL {urlErr}</span>}
        </label>
        <fieldset>
          <legend className="mb-1 text-xs font-medium text-slate-700">Event kinds</legend>
          <div className="grid gap-1.5">
            {WEBHOOK_EVENT_TYPES.map((t) => (
              <label key={t} className="flex items-center gap-2 font-mono text-xs text-slate-800">
                <input type="checkbox" value={t} {...register("events")} /> {t}
              </label>
            ))}
          </div>
          {evErr && <span className="text-xs text-red-700">Choose at least one event kind.</span>}
        </fieldset>
      </form>
    </Modal>
  );
}
