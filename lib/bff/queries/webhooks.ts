/** Webhook endpoint management (spec §4 Webhooks; admin). Not company-scoped. */
import "server-only";
import type { z } from "zod";
import type { WebhookCreate, WebhookPatch } from "../../contract";
import { plainCall, type BffContext, type WriteScope } from "../context";
import { pageParams, type DeliveriesQuery, type PagingQuery } from "../inputs";
import { treasury } from "../../server/treasury";
import { toBffPage } from "./page";

export async function listWebhooks(ctx: BffContext, q: z.output<typeof PagingQuery> = {}) {
  return toBffPage(await treasury().listWebhooks(plainCall(ctx), pageParams(q)));
}

/** The answer carries the signing `secret` once; it goes to the admin's browser by design (shown once). */
export async function createWebhook(ctx: WriteScope, body: WebhookCreate) {
  return treasury().createWebhook(ctx.write, body);
}

export async function getWebhook(ctx: BffContext, id: string) {
  return treasury().getWebhook(plainCall(ctx), id);
}

export async function patchWebhook(ctx: WriteScope, id: string, body: WebhookPatch) {
  return treasury().patchWebhook(ctx.write, id, body);
}

export async function deleteWebhook(ctx: WriteScope, id: string): Promise<undefined> {
  await treasury().deleteWebhook(ctx.write, id);
  return undefined;
}

export async function listWebhookDeliveries(ctx: BffContext, id: string, q: z.output<typeof DeliveriesQuery> = {}) {
  return toBffPage(await treasury().listWebhookDeliveries(plainCall(ctx), id, { ...pageParams(q), status: q.status }));
}

export async function testWebhook(ctx: WriteScope, id: string) {
  return treasury().testWebhook(ctx.write, id);
}
