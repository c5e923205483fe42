/**
 * pain.001 export of a payment batch: the batch, all its instructions and the
 * account it is paid from, built into a Customer Credit Transfer Initiation
 * by `lib/iso20022/pain001` and answered as an XML download.
 *
 * The debtor account follows the local API's bank: the company's first active
 * account in the batch currency, by name then id. The API names it through its
 * extension `GET /payments/batches/{id}/debtor-account` (the public accounts
 * list masks IBANs); an API without that extension cannot give a file.
 */
import "server-only";
import { z } from "zod";
import type { DebtorAccount, PaymentInstruction } from "@treasury/contract";
import { PAIN001_STATES } from "../../iso20022/pain001-states";
import { buildPain001, PAIN001_VERSIONS, Pain001Error, type Pain001Note } from "../../iso20022/pain001";
import { iterateItems, TreasuryApiError } from "../../treasury-client";
import { capabilities } from "../capabilities";
import { companyCall, type BffContext } from "../context";
import { BffError } from "../errors";
import { treasury } from "../../server/treasury";
import type { DebtorAccountView } from "../../views/payments";

export type { DebtorAccountView };

/** Query of the export route: `version` defaults to pain.001.001.09. */
export const Pain001Query = z.object({
  version: z.enum(PAIN001_VERSIONS, { message: `must be one of ${PAIN001_VERSIONS.join(", ")}` }).optional(),
});

function mask(iban: string): string {
  return iban.length <= 8 ? iban : `${iban.slice(0, 4)}${"*".repeat(iban.length - 8)}${iban.slice(-4)}`;
}

async function debtorAccount(ctx: BffContext, id: string): Promise<DebtorAccount> {
  if (!(await capabilities()).has("payments.debtor_account")) {
    throw new BffError(
      "conflict",
      "The Treasury API does not name the account a batch is paid from, so no pain.001 can be written for it.",
    );
  }
  try {
    return await treasury().getBatchDebtorAccount(companyCall(ctx), id);
  } catch (err) {
    if (err instanceof TreasuryApiError && err.status === 404) {
      // The batch itself was read just before, so the 404 is the missing account.
      throw new BffError("conflict", "The company has no active account in the batch currency to pay this batch from.");
    }
    throw err;
  }
}

/**
 * GET …/debtor-account for the batch page: the account, or null and the
 * reason why no file can be written (the page says so).
 */
export async function getDebtorAccountView(
  ctx: BffContext,
  id: string,
): Promise<{ account: DebtorAccountView | null; reason: string | null }> {
  await treasury().getBatch(companyCall(ctx), id);
  try {
    const a = await debtorAccount(ctx, id);
    return {
      account: {
        account_id: a.account_id,
        name: a.name,
        iban_masked: mask(a.iban),
        bank_name: a.bank_name,
        bic: a.bic,
        currency: a.currency,
      },
      reason: null,
    };
  } catch (err) {
    if (err instanceof BffError && err.code === "conflict") return { account: null, reason: err.message };
    throw err;
  }
}

/** ASCII header value summarising the notes: `transliterated=3; truncated=1; agent_not_provided=0`. */
function notesHeader(notes: Pain001Note[]): string {
  const n = (k: Pain001Note["kind"]) => notes.filter((x) => x.kind === k).length;
  return (
    `transliterated=${n("transliterated")}; truncated=${n("truncated")}; ` +
    `agent_not_provided=${n("agent_not_provided")}`
  );
}

/** The first 50 changed fields (URI-encoded, comma separated) and how many there are in all. */
function fieldsHeader(notes: Pain001Note[]): string {
  const fields = [...new Set(notes.map((x) => `${x.kind}:${x.field}`))];
  return fields
    .slice(0, 50)
    .map((f) => encodeURIComponent(f))
    .join(",");
}

/**
 * The pain.001 of batch `id` as an XML attachment. Headers: `X-Pain001-Notes`
 * (counts of transliterated / truncated fields, a missing debtor BIC),
 * `X-Pain001-Fields` (the first 50 such fields), `X-Pain001-Debtor-Account`.
 * @throws BffError 409 when the batch is pending approval or rejected, the company has no debtor account, or the
 *   schema cannot carry an amount; upstream errors as everywhere.
 */
export async function exportPain001(
  ctx: BffContext & { audit: { details?: Record<string, unknown> } },
  id: string,
  q: z.output<typeof Pain001Query>,
): Promise<Response> {
  const call = companyCall(ctx);
  const batch = await treasury().getBatch(call, id);
  if (!PAIN001_STATES.includes(batch.status)) {
    throw new BffError(
      "conflict",
      "A pain.001 is given for a batch before it is submitted (for review) or once approved; " +
        `this one is ${batch.status.replace("_", " ")}.`,
      {
        state: batch.status,
        allowed: PAIN001_STATES,
      },
    );
  }
  const debtor = await debtorAccount(ctx, id);
  const instructions: PaymentInstruction[] = [];
  for await (const i of iterateItems(treasury().listBatchInstructions(call, id, { pageSize: 1000 }), { maxPages: 100 }))
    instructions.push(i);

  let result;
  try {
    result = buildPain001(
      batch,
      // Remittance information: free text as Ustrd, an RF creditor reference as structured CdtrRefInf.
      instructions.map((i) => ({
        ...i,
        remittance: i.remittance_information?.type === "unstructured" ? i.remittance_information.text : null,
        creditor_reference:
          i.remittance_information?.type === "creditor_reference" ? i.remittance_information.reference : null,
      })),
      { name: debtor.company_name, iban: debtor.iban, bic: debtor.bic },
      { version: q.version },
    );
  } catch (err) {
    if (err instanceof Pain001Error)
      throw new BffError("conflict", `The batch cannot be written as pain.001: ${err.message}.`, { field: err.field });
    throw err;
  }
  ctx.audit.details = {
    version: result.version,
    message_id: result.messageId,
    instructions: result.numberOfTransactions,
    control_sum: result.controlSum,
    debtor_account_id: debtor.account_id,
    notes: result.notes.length,
  };
  return new Response(result.xml, {
    status: 200,
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${result.fileName}"`,
      "Cache-Control": "no-store",
      "X-Pain001-Notes": notesHeader(result.notes),
      "X-Pain001-Fields": fieldsHeader(result.notes),
      "X-Pain001-Debtor-Account": `${encodeURIComponent(debtor.name)} ${mask(debtor.iban)}`,
      "Access-Control-Expose-Headers": "X-Pain001-Notes, X-Pain001-Fields, X-Pain001-Debtor-Account",
    },
  });
}
