/**
 * The webhook outbox (docs/architecture.md#webhooks): an event is written in the same
 * database transaction as the change that causes it; the delivery worker fans
 * it out to the matching endpoints later. Callers pass their transaction.
 */
import { chunk as chunked } from "es-toolkit";
import type { DbOrTx } from "../db/client";
import { sql } from "drizzle-orm";
import { BULK_CHUNK } from "../db/bulk-insert";
import type { WebhookEventType } from "@treasury/contract/webhooks";
import { newId } from "../lib/secrets";

export interface OutboxEvent {
  tenantId: string;
  companyId: string | null;
  type: WebhookEventType;
  /** The resource as the API returns it (e.g. a Transaction). */
  data: Record<string, unknown>;
}

/**
 * Appends one event of `type` per row to the outbox inside `tx`, each for the row's own tenant and company, with
 * `data(row)` as the event's resource (as the API returns it). Returns the event ids; none for no rows.
 */
export function enqueueRowEvents<T extends { tenantId: string; companyId: string | null }>(
  tx: DbOrTx,
  type: WebhookEventType,
  rows: readonly T[],
  data: (row: T) => Record<string, unknown>,
): Promise<string[]> {
  return enqueueEvents(
    tx,
    rows.map((r) => ({ tenantId: r.tenantId, companyId: r.companyId, type, data: data(r) })),
  );
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
  // One statement per chunk with the whole chunk as ONE jsonb parameter (`jsonb_to_recordset`): a 20,000-entry
  // statement import writes 20,000 events, and one JSON.stringify plus PostgreSQL's JSON parser cost about half
  // of the per-element escaping of a text[] parameter per column (docs/bank-files.md "Speed").
  for (const part of chunked(rows, BULK_CHUNK)) {
    await tx.execute(
      sql`INSERT INTO webhook_events (id, tenant_id, company_id, type, payload, created_at)
          SELECT u.id, u.tenant_id, u.company_id, u.type, u.payload, u.created_at
          FROM jsonb_to_recordset(${JSON.stringify(
            part.map((r) => ({
              id: r.id,
              tenant_id: r.tenantId,
              company_id: r.companyId,
              type: r.type,
              payload: r.payload,
              created_at: r.createdAt,
            })),
          )}::jsonb) AS u(id uuid, tenant_id uuid, company_id uuid, type text, payload jsonb, created_at timestamptz)`,
    );
  }
  return rows.map((r) => r.id);
}
