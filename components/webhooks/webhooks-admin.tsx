"use client";

import dynamic from "next/dynamic";
import { Fragment, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Plus, Webhook } from "lucide-react";
import type { WebhookEndpoint } from "@treasury/contract";
import { Timestamp } from "@/components/format/business-date";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { DetailRow, HiddenTh, Table, Th } from "@/components/ui/table";
import { errorText } from "@/components/data/error-text";
import { DeliveriesLog } from "./deliveries-log";
import { SecretDialog } from "./secret-dialog";
import { useWebhookAction, type WebhookAction } from "./use-webhook-action";
import { webhookQueries } from "./webhook-queries";

// Opened on demand: the form (react-hook-form, zod, the contract) loads then, not on the first load.
const WebhookFormDialog = dynamic(() => import("./webhook-form-dialog").then((m) => m.WebhookFormDialog), {
  ssr: false,
});

const td = "border-b border-slate-100 px-3 py-2 align-top";

/** Webhook admin: list, create / edit, activate, rotate, test, delete with confirmation, delivery log. */
export function WebhooksAdmin() {
  const q = useQuery(webhookQueries.list());
  const [form, setForm] = useState<{ endpoint: WebhookEndpoint | null } | null>(null);
  const [secret, setSecret] = useState<{ value: string; rotated: boolean } | null>(null);
  const [confirm, setConfirm] = useState<{ endpoint: WebhookEndpoint; action: WebhookAction } | null>(null);
  const [log, setLog] = useState<string | null>(null);
  const act = useWebhookAction((s) => setSecret({ value: s, rotated: true }));
  const run = (endpoint: WebhookEndpoint, action: WebhookAction) =>
    act.mutate({ endpoint, action }, { onSettled: () => setConfirm(null) });

  return (
    <div>
      <div className="mb-3 flex justify-end">
        <Button variant="primary" onClick={() => setForm({ endpoint: null })} data-testid="new-webhook">
          <Plus className="size-4" aria-hidden /> New endpoint
        </Button>
      </div>
      {q.isPending ? (
        <SkeletonRows />
      ) : q.isError ? (
        <ProblemState title="The endpoints could not be loaded" message={errorText(q.error, "Loading the endpoints")} />
      ) : q.data.items.length === 0 ? (
        <EmptyState title="No webhook endpoints" icon={Webhook}>
          Create an endpoint to receive signed payment and reconciliation events.
        </EmptyState>
      ) : (
        <Table label="Webhook endpoints">
          <thead>
            <tr>
              <Th>URL</Th>
              <Th>Events</Th>
              <Th>Active</Th>
              <Th>Created</Th>
              <HiddenTh>Actions</HiddenTh>
            </tr>
          </thead>
          <tbody>
            {q.data.items.map((e) => (
              <Fragment key={e.id}>
                <tr data-testid="webhook-row" data-url={e.url}>
                  <td className={`${td} max-w-80 break-all font-mono text-xs`}>{e.url}</td>
                  <td className={`${td} max-w-72 font-mono text-xs text-slate-600`}>{e.events.join(", ")}</td>
                  <td className={td}>
                    <label className="inline-flex items-center gap-1.5">
                      <input
                        type="checkbox"
                        checked={e.active}
                        onChange={() => run(e, { kind: "toggle", active: !e.active })}
                        aria-label={`Active: ${e.url}`}
                      />
                      <span className="text-xs text-slate-600">{e.active ? "active" : "inactive"}</span>
                    </label>
                  </td>
                  <td className={`${td} text-slate-600`}>{e.created_at ? <Timestamp value={e.created_at} /> : "—"}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    {/* Two deliberate lines: try it and read its log; then change it. */}
                    <div className="flex flex-col items-end gap-1.5">
                      <div className="flex gap-1.5">
                        <Button
                          onClick={() => run(e, { kind: "test" })}
                          pending={
                            act.isPending && act.variables?.endpoint.id === e.id && act.variables.action.kind === "test"
                          }
                          data-testid="test-webhook"
                        >
                          Send test
                        </Button>
                        <Button
                          onClick={() => setLog(log === e.id ? null : e.id)}
                          aria-expanded={log === e.id}
                          data-testid="show-deliveries"
                        >
                          Deliveries
                        </Button>
                      </div>
                      <div className="flex gap-1.5">
                        <Button onClick={() => setForm({ endpoint: e })}>Edit</Button>
                        <Button onClick={() => setConfirm({ endpoint: e, action: { kind: "rotate" } })}>
                          Rotate secret
                        </Button>
                        <Button
                          variant="ghost"
                          className="text-red-700"
                          onClick={() => setConfirm({ endpoint: e, action: { kind: "delete" } })}
                        >
                          Delete
                        </Button>
                      </div>
                    </div>
                  </td>
                </tr>
                {log === e.id && (
                  <DetailRow colSpan={5}>
                    <DeliveriesLog id={e.id} />
                  </DetailRow>
                )}
              </Fragment>
            ))}
          </tbody>
        </Table>
      )}
      {form && (
        <WebhookFormDialog
          endpoint={form.endpoint}
          onClose={() => setForm(null)}
          onCreated={(c) => {
            setSecret({ value: c.secret, rotated: false });
            setLog(c.id);
          }}
        />
      )}
      {secret && <SecretDialog secret={secret.value} rotated={secret.rotated} onClose={() => setSecret(null)} />}
      {confirm && (
        <Modal
          open
          onOpenChange={(o) => !o && !act.isPending && setConfirm(null)}
          title={confirm.action.kind === "delete" ? "Delete this endpoint?" : "Rotate the signing secret?"}
          description={
            confirm.action.kind === "delete"
              ? `No more events are sent to ${confirm.endpoint.url}. This cannot be undone.`
              : "A new secret is issued and shown once; the old one stays valid for 24 hours."
          }
          footer={
            <>
              <Button onClick={() => setConfirm(null)} disabled={act.isPending}>
                Cancel
              </Button>
              <Button
                variant={confirm.action.kind === "delete" ? "danger" : "primary"}
                pending={act.isPending}
                onClick={() => run(confirm.endpoint, confirm.action)}
                data-testid="confirm-webhook-action"
              >
                {confirm.action.kind === "delete" ? "Delete" : "Rotate"}
              </Button>
            </>
          }
        />
      )}
    </div>
  );
}
