/**
 * The webhook outbox (docs/architecture.md#webhooks): an event is written in the same
 * database transaction as the change that causes it; the delivery worker fans
 * it out to the matching endpoints later. Callers pass their transaction.
 */
import { chunk as chunked } from "es-toolkit";
import type { DbOrTx } from "../db/client";
import { webhookEvents } from "../db/schema";
import type { WebhookEventType } from "@treasury/contract/webhooks";
import { newId } from "../lib/secrets";

export interface OutboxEvent {
  tenantId: string;
  companyId: string | null;
  type: WebhookEventType;
  /** The resource as the API returns it (e.g. a Transaction). */
  data: Record<string, unknown>;
}

/** Appends events to the outbox inside `tx`. Returns the event ids. */
export async function enqueueEvents(tx: DbOrTx, events: OutboxEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const now = new Date().toISOString();
  const rows = events.map((e) => {
    const id = newId();
    return {
      id,
      tenantId: e.tenantId,
      companyId: e.companyId,
      type: e.type,
      payload: { id, type: e.type, created_at: now, data: e.data },
      createdAt: now,
    };
  });
  for (const part of chunked(rows, 1000)) await tx.insert(webhookEvents).values(part);
  return rows.map((r) => r.id);
}
