/**
 * The webhook outbox (docs/architecture.md#webhooks): an event is written in the same
 * database transaction as the change that causes it; the delivery worker fans
 * it out to the matching endpoints later. Callers pass their transaction.
 */
import { chunk as chunked } from "es-toolkit";
import type { DbOrTx } from "../db/client";
import { sql } from "drizzle-orm";
import { BULK_CHUNK, unnestColumns } from "../db/bulk-insert";
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
  // One statement per chunk with one array parameter per column (db/bulk-insert.ts): a 20,000-entry statement
  // import writes 20,000 events, and per-cell parameters cost more than the rows themselves.
  for (const part of chunked(rows, BULK_CHUNK)) {
    await tx.execute(
      sql`INSERT INTO webhook_events (id, tenant_id, company_id, type, payload, created_at)
          SELECT u.id, u.tenant_id, u.company_id, u.type, u.payload, u.created_at
          FROM ${unnestColumns({
            id: [part.map((r) => r.id), "uuid"],
            tenant_id: [part.map((r) => r.tenantId), "uuid"],
            company_id: [part.map((r) => r.companyId), "uuid"],
            type: [part.map((r) => r.type), "text"],
            payload: [part.map((r) => JSON.stringify(r.payload)), "jsonb"],
            created_at: [part.map((r) => r.createdAt), "timestamptz"],
          })}`,
    );
  }
  return rows.map((r) => r.id);
}
