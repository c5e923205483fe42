/**
 * Payment batches, instructions and status events (docs/treasury-api.md#resources,
 * #states-and-transitions and #payments; docs/architecture.md#states-and-transitions).
 */
import { z } from "zod";
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from "ibantools";
import { creditorReferenceProblem, electronicCreditorReference } from "./creditor-reference";
import { ExactDecimal } from "./exact-decimal";
import {
  CurrencyCode,
  DecimalString,
  IsoDate,
  IsoDateTime,
  PositiveDecimalString,
  Uuid,
  currencyMinorUnits,
  text,
} from "./common";
import { DECIMAL_STRING_PATTERN } from "./amounts";
import { BATCH_STATUSES, INSTRUCTION_STATUSES } from "./enums";

export { BATCH_STATUSES, INSTRUCTION_STATUSES };
export const BatchStatus = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof BatchStatus>;

/** Instruction states, modelled on ISO 20022 pain.002 (PDNG, ACCP, ACSC, RJCT). */
export const InstructionStatus = z.enum(INSTRUCTION_STATUSES);
export type InstructionStatus = z.infer<typeof InstructionStatus>;

/** Most instructions one batch may carry. */
export const MAX_INSTRUCTIONS = 10_000;

/** An IBAN, spaces allowed on input, checked with ibantools (country format and mod-97). */
export const Iban = z
  .string()
  .trim()
  .max(42, { message: "must be at most 34 characters" })
  .transform((s) => electronicFormatIBAN(s) ?? s)
  .refine((s) => isValidIBAN(s), { message: "is not a valid IBAN" });

/** Longest unstructured remittance text (ISO 20022 pain.001 `RmtInf/Ustrd`). */
export const MAX_REMITTANCE = 140;

/**
 * Extension: what the creditor reads with the payment (pain.001 `RmtInf`). Either free text (`Ustrd`, 1–140
 * characters) or a structured ISO 11649 creditor reference (`Strd/CdtrRefInf`, "RF" + check digits, mod 97),
 * stored without spaces in upper case.
 */
export const RemittanceInformation = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("unstructured"), text: text(MAX_REMITTANCE) }).strict(),
    z
      .object({
        type: z.literal("creditor_reference"),
        reference: z
          .string()
          .max(40, { message: "must be at most 25 characters (RF, 2 check digits, up to 21 characters)" })
          .transform((s) => electronicCreditorReference(s))
          .superRefine((s, ctx) => {
            const problem = creditorReferenceProblem(s);
            if (problem) ctx.addIssue({ code: "custom", message: problem });
          }),
      })
      .strict(),
  ])
  .meta({ id: "RemittanceInformation" });
export type RemittanceInformation = z.infer<typeof RemittanceInformation>;

/** The text of a remittance as it travels with the payment: the free text, or the creditor reference. */
export function remittanceText(r: RemittanceInformation | null | undefined): string | null {
  if (!r) return null;
  return r.type === "unstructured" ? r.text : r.reference;
}

/** A BIC (ISO 9362, 8 or 11 characters), spaces and lower case accepted, checked with ibantools. */
export const Bic = z
  .string()
  .max(20, { message: "must be 8 or 11 characters" })
  .transform((s) => s.replace(/\s+/g, "").toUpperCase())
  .refine((s) => isValidBIC(s), { message: "is not a valid BIC (8 or 11 characters, ISO 9362)" });

export const PaymentInstructionCreate = z
  .object({
    amount: PositiveDecimalString,
    currency: CurrencyCode,
    creditor_name: text(140),
    creditor_iban: Iban,
    end_to_end_id: text(35),
    creditor_bic: Bic.optional().meta({
      description: "Extension: the creditor's bank (BIC); optional where the IBAN identifies the bank",
    }),
    remittance_information: RemittanceInformation.optional().meta({ description: "Extension" }),
  })
  .strict()
  .meta({ id: "PaymentInstructionCreate" });
export type PaymentInstructionCreate = z.infer<typeof PaymentInstructionCreate>;

/**
 * The cross-field rules a batch body obeys, for create and edit: instruction
 * currency = the batch currency (when the body names it; an edit is checked
 * against the stored batch), fraction digits of the currency, unique
 * end-to-end ids, total within 18 integer digits. The execution date's lower
 * bound is today in the company's time zone, which the body does not carry:
 * it is checked where the company is known (`executionDateProblem` in
 * `business-date.ts`: the API's repository and the BFF).
 */
function refineBatch(
  batch: {
    currency?: string;
    instructions?: readonly { amount: string; currency: string; end_to_end_id: string }[];
  },
  ctx: z.RefinementCtx,
): void {
  const instructions = batch.instructions;
  if (!instructions) return;
  const currency = batch.currency ?? instructions[0]?.currency ?? "";
  let digits: number | null = null;
  try {
    digits = currencyMinorUnits(currency);
  } catch {
    digits = null;
  }
  const seen = new Map<string, number>();
  // ExactDecimal: the sum must be exact to tell whether it still has at most 18 integer digits.
  let total = new ExactDecimal(0);
  instructions.forEach((ins, i) => {
    if (ins.currency !== currency) {
      ctx.addIssue({
        code: "custom",
        path: ["instructions", i, "currency"],
        message: `must equal the batch currency ${currency}`,
      });
    }
    const fraction = ins.amount.split(".")[1] ?? "";
    if (digits !== null && fraction.length > digits) {
      ctx.addIssue({
        code: "custom",
        path: ["instructions", i, "amount"],
        message: `has more than ${digits} fraction digits for ${currency}`,
      });
    }
    if (DECIMAL_STRING_PATTERN.test(ins.amount)) total = total.plus(ins.amount);
    const first = seen.get(ins.end_to_end_id);
    if (first !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["instructions", i, "end_to_end_id"],
        message: `duplicates instructions[${first}].end_to_end_id`,
      });
    } else {
      seen.set(ins.end_to_end_id, i);
    }
  });
  if (!DECIMAL_STRING_PATTERN.test(total.toFixed())) {
    ctx.addIssue({
      code: "custom",
      path: ["instructions"],
      message:
        `add up to ${total.toFixed()}, more than the largest total_amount a batch can carry (18 integer ` +
        `digits, 999999999999999999.999999)`,
    });
  }
}

/** The execution date rule, as the OpenAPI document states it. */
const EXECUTION_DATE_RULE =
  "Not before today in the company's time zone (its country's zone, e.g. Europe/Oslo for NO; UTC for a country " +
  "without a known zone), else 400 naming requested_execution_date";

/**
 * POST /payments/batches body. Cross-field rules (DESIGN/issue): instruction
 * currency equals the batch currency; amounts have no more fraction digits than
 * the currency allows; end-to-end ids unique within the batch; the total fits
 * the amount pattern (18 integer digits), as `total_amount` and the forecast must.
 * `company_id` = X-Company-ID and `requested_execution_date` not before today
 * in the company's time zone are checked by the server (they need the header,
 * the company's country and the clock).
 */
export const PaymentBatchCreate = z
  .object({
    company_id: Uuid,
    currency: CurrencyCode,
    requested_execution_date: IsoDate.optional().meta({ description: EXECUTION_DATE_RULE }),
    initiator: text(200)
      .optional()
      .meta({
        description:
          "Extension: who creates the batch (a person's id); defaults to the client_id. An approver equal to it is " +
          "refused (four-eyes).",
      }),
    reference: text(140)
      .optional()
      .meta({ description: "Extension: the batch's name / reference (1 to 140 characters)" }),
    debtor_account_id: Uuid.optional().meta({
      description:
        "Extension: the account the batch is paid from: an active account of the company in the batch currency. " +
        "Default: the company's first active account in the batch currency, by name then id.",
    }),
    instructions: z
      .array(PaymentInstructionCreate)
      .min(1, { message: "must hold at least one instruction" })
      .max(MAX_INSTRUCTIONS, { message: `must hold at most ${MAX_INSTRUCTIONS} instructions` }),
  })
  .strict()
  .superRefine((batch, ctx) => refineBatch(batch, ctx))
  .meta({ id: "PaymentBatchCreate" });
export type PaymentBatchCreate = z.infer<typeof PaymentBatchCreate>;

/**
 * PATCH /payments/batches/{id} body (extension): rename, move, repoint or
 * replace the instructions of a batch still in status `created`. Every field
 * is optional, at least one is required; `null` clears reference, execution
 * date or debtor account (back to the default rule); `instructions` replaces
 * all of them (the same rules as on create; their currency must be the batch's).
 */
export const PaymentBatchUpdate = z
  .object({
    reference: text(140).nullable().optional(),
    requested_execution_date: IsoDate.nullable()
      .optional()
      .meta({ description: `${EXECUTION_DATE_RULE}; null clears it` }),
    debtor_account_id: Uuid.nullable().optional(),
    instructions: z
      .array(PaymentInstructionCreate)
      .min(1, { message: "must hold at least one instruction" })
      .max(MAX_INSTRUCTIONS, { message: `must hold at most ${MAX_INSTRUCTIONS} instructions` })
      .optional(),
  })
  .strict()
  .superRefine((batch, ctx) => {
    if (Object.values(batch).every((v) => v === undefined))
      ctx.addIssue({ code: "custom", path: [], message: "must change at least one field" });
    refineBatch(batch, ctx);
  })
  .meta({ id: "PaymentBatchUpdate" });
export type PaymentBatchUpdate = z.infer<typeof PaymentBatchUpdate>;

/**
 * Extension (docs/bank-channels.md "Push"): the batch's payment file as delivered to its bank over a host-to-host
 * connection — the file name in the bank's inbox (the pain.001 message id + `.xml`), when it was sent (ISO 8601 with
 * offset) and the connection's bank name.
 */
export const BankDelivery = z
  .object({
    file_name: z.string().meta({ description: "The payment file's name in the bank's inbox" }),
    sent_at: IsoDateTime.meta({ description: "When the file was written to the bank's inbox" }),
    connection_name: z.string().meta({ description: "The bank connection's bank name" }),
  })
  .meta({ id: "BankDelivery" });
export type BankDelivery = z.infer<typeof BankDelivery>;

export const PaymentBatch = z
  .object({
    id: Uuid,
    company_id: Uuid,
    currency: CurrencyCode,
    status: BatchStatus,
    total_amount: DecimalString,
    created_at: IsoDateTime,
    instruction_count: z.number().int().meta({ description: "Extension" }),
    requested_execution_date: IsoDate.nullable().meta({ description: "Extension" }),
    initiator: z
      .string()
      .optional()
      .meta({ description: "Extension: who created the batch (the create body's initiator, else the client_id)" }),
    reference: z.string().nullable().optional().meta({ description: "Extension: the batch's name / reference" }),
    debtor_account_id: Uuid.nullable()
      .optional()
      .meta({ description: "Extension: the account chosen to pay from; null = the default rule" }),
    bank_delivery: BankDelivery.nullable()
      .optional()
      .meta({
        description:
          "Extension, on every single-batch response (GET /payments/batches/{id}, and null in the responses of " +
          "create, update and submit): the payment file sent to the bank over a bank connection; null until it is " +
          "sent (or when no connection serves the debtor account). Not in the list.",
      }),
  })
  .meta({ id: "PaymentBatch" });
export type PaymentBatch = z.infer<typeof PaymentBatch>;

export const PaymentInstruction = z
  .object({
    id: Uuid,
    amount: DecimalString,
    currency: CurrencyCode,
    creditor_name: z.string(),
    creditor_iban: z.string(),
    end_to_end_id: z.string(),
    batch_id: Uuid.optional().meta({ description: "Extension" }),
    status: InstructionStatus.optional().meta({ description: "Extension: current status" }),
    creditor_bic: z.string().nullable().optional().meta({ description: "Extension: the creditor's BIC" }),
    remittance_information: RemittanceInformation.nullable().optional().meta({ description: "Extension" }),
    batch_reference: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Extension: the reference of the instruction's batch (reads by id; null without one)" }),
  })
  .meta({ id: "PaymentInstruction" });
export type PaymentInstruction = z.infer<typeof PaymentInstruction>;

export const PaymentStatusEvent = z
  .object({
    id: Uuid,
    instruction_id: Uuid,
    status: InstructionStatus,
    occurred_at: IsoDateTime,
    batch_id: Uuid.optional().meta({ description: "Extension" }),
    reason: z.string().nullable().optional().meta({ description: "Extension: ISO 20022 reason code on rejection" }),
    reason_text: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Extension: the reason code's text and the bank's own words (pain.002), when known" }),
  })
  .meta({ id: "PaymentStatusEvent" });
export type PaymentStatusEvent = z.infer<typeof PaymentStatusEvent>;

/**
 * GET /payments/batches/{id}/debtor-account (extension): the account a batch
 * is paid from, with the full IBAN a payment file needs. The local API debits
 * the company's first active account in the batch currency, by name then id.
 */
export const DebtorAccount = z
  .object({
    account_id: Uuid,
    name: z.string().meta({ description: "Account display name" }),
    iban: z.string().meta({ description: "Full IBAN, electronic format" }),
    bic: z.string().nullable().meta({ description: "The account's bank identifier (BIC) when it is one" }),
    bank_name: z.string(),
    currency: CurrencyCode,
    company_name: z.string().meta({ description: "The debtor: the company that owns the account" }),
  })
  .meta({ id: "DebtorAccount" });
export type DebtorAccount = z.infer<typeof DebtorAccount>;
