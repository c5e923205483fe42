/**
 * Payment batches, instructions and status events (spec §2, §3, §4 Payments;
 * states from DESIGN.md "States and transitions").
 */
import { z } from "zod";
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { ExactDecimal } from "../exact-decimal";
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

export const PaymentInstructionCreate = z
  .object({
    amount: PositiveDecimalString,
    currency: CurrencyCode,
    creditor_name: text(140),
    creditor_iban: Iban,
    end_to_end_id: text(35),
  })
  .strict();
export type PaymentInstructionCreate = z.infer<typeof PaymentInstructionCreate>;

/** Today's date in UTC as YYYY-MM-DD (the business date the API compares execution dates with). */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * POST /payments/batches body. Cross-field rules (DESIGN/issue): instruction
 * currency equals the batch currency; amounts have no more fraction digits than
 * the currency allows; end-to-end ids unique within the batch; the total fits
 * the amount pattern (18 integer digits), as `total_amount` and the forecast must;
 * `requested_execution_date` not before today (UTC, evaluated at parse time).
 * `company_id` = X-Company-ID is checked by the server (it needs the header).
 */
export const PaymentBatchCreate = z
  .object({
    company_id: Uuid,
    currency: CurrencyCode,
    requested_execution_date: IsoDate.optional(),
    initiator: text(200)
      .optional()
      .meta({
        description:
          "Extension: who creates the batch (a person's id); defaults to the client_id. An approver equal to it is " +
          "refused (four-eyes).",
      }),
    instructions: z
      .array(PaymentInstructionCreate)
      .min(1, { message: "must hold at least one instruction" })
      .max(MAX_INSTRUCTIONS, { message: `must hold at most ${MAX_INSTRUCTIONS} instructions` }),
  })
  .strict()
  .superRefine((batch, ctx) => {
    if (batch.requested_execution_date !== undefined && batch.requested_execution_date < todayUtc()) {
      ctx.addIssue({
        code: "custom",
        path: ["requested_execution_date"],
        message: `must not be in the past (today is ${todayUtc()} UTC)`,
      });
    }
    let digits: number | null = null;
    try {
      digits = currencyMinorUnits(batch.currency);
    } catch {
      digits = null;
    }
    const seen = new Map<string, number>();
    // ExactDecimal: the sum must be exact to tell whether it still has at most 18 integer digits.
    let total = new ExactDecimal(0);
    batch.instructions.forEach((ins, i) => {
      if (ins.currency !== batch.currency) {
        ctx.addIssue({
          code: "custom",
          path: ["instructions", i, "currency"],
          message: `must equal the batch currency ${batch.currency}`,
        });
      }
      const fraction = ins.amount.split(".")[1] ?? "";
      if (digits !== null && fraction.length > digits) {
        ctx.addIssue({
          code: "custom",
          path: ["instructions", i, "amount"],
          message: `has more than ${digits} fraction digits for ${batch.currency}`,
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
  })
  .meta({ id: "PaymentBatchCreate" });
export type PaymentBatchCreate = z.infer<typeof PaymentBatchCreate>;

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
