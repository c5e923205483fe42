/** Webhook endpoints (docs/treasury-api.md#webhook-endpoints; admin), not company-scoped: the list the admin page and its route share. */
import "server-only";
import type { z } from "zod";
import { treasury } from "../../server/treasury";
import { plainCall, type BffContext } from "../context";
import type { PagingQuery } from "../inputs";
import { clientFilters, toBffPage } from "./page";

export async function listWebhooks(ctx: BffContext, q: z.output<typeof PagingQuery> = {}) {
  return toBffPage(await treasury().listWebhooks(plainCall(ctx), clientFilters(q)));
}
