/**
 * Bank data: accounts, transactions, balance snapshots, coverage days and
 * intraday balance points (docs/treasury-api.md#ledger; docs/architecture.md#enumerations).
 */
import { z } from "zod";
import { CurrencyCode, DecimalString, IsoDate, IsoDateTime, Uuid, text } from "./common";
import { BALANCE_TYPES, COMPLETENESS, COVERAGE_SOURCES } from "./enums";

export { BALANCE_TYPES, COMPLETENESS, COVERAGE_SOURCES };

/** ISO 20022 balance codes CLBD, CLAV, ITBD, ITAV. */
export const BalanceType = z.enum(BALANCE_TYPES, { message: `must be one of ${BALANCE_TYPES.join(", ")}` });
export type BalanceType = z.infer<typeof BalanceType>;

export const Direction = z.enum(["credit", "debit"], { message: "must be credit or debit" });
export type Direction = z.infer<typeof Direction>;

export const CoverageSource = z.enum(COVERAGE_SOURCES);
export const Completeness = z.enum(COMPLETENESS);

export const AccountStatus = z.enum(["active", "closed"], { message: "must be active or closed" });

export const Account = z
  .object({
    id: Uuid,
    name: z.string(),
    currency: CurrencyCode,
    iban_masked: z.string().meta({ description: "First four characters, then *, then the last four" }),
    bank_name: z.string(),
    // Extensions (additive): where the account sits and its status.
    company_id: Uuid.optional().meta({ description: "Extension: owning company" }),
    bank_id: z.string().optional().meta({ description: "Extension: bank identifier (BIC)" }),
    status: AccountStatus.optional().meta({ description: "Extension: active or closed" }),
  })
  .meta({ id: "Account" });
export type Account = z.infer<typeof Account>;

/** POST /accounts body: upsert identified by (client environment, bank_id, external_ref). */
export const AccountUpsert = z
  .object({
    company_id: Uuid,
    bank_id: z
      .string()
      .trim()
      .regex(/^[A-Z0-9]{4,11}$/, {
        message: "must be a bank identifier such as a BIC (4 to 11 upper-case letters or digits)",
      }),
    external_ref: text(34),
    external_ref_type: z.literal("IBAN", { message: "must be IBAN" }),
    currency: CurrencyCode,
    status: AccountStatus,
    name: text(140).optional().meta({ description: "Extension: display name" }),
    bank_name: text(140).optional().meta({ description: "Extension: bank display name" }),
  })
  .strict()
  .meta({ id: "AccountUpsert" });
export type AccountUpsert = z.infer<typeof AccountUpsert>;

export const Transaction = z
  .object({
    id: Uuid,
    account_id: Uuid,
    amount: DecimalString.meta({ description: "Absolute amount; the sign is given by direction" }),
    currency: CurrencyCode,
    direction: Direction,
    booked_at: IsoDateTime,
    value_at: IsoDateTime,
    counterparty_name: z.string(),
    remittance: z.string(),
    end_to_end_id: z.string().nullable().optional().meta({ description: "Extension: ISO 20022 end-to-end id" }),
    booked_date: IsoDate.optional().meta({ description: "Extension: the bank's booking date" }),
    value_date: IsoDate.optional().meta({ description: "Extension: value date" }),
  })
  .meta({ id: "Transaction" });
export type Transaction = z.infer<typeof Transaction>;

export const BalanceSnapshot = z
  .object({
    id: Uuid,
    account_id: Uuid,
    balance_type: BalanceType,
    as_of_date: IsoDate,
    balance: DecimalString,
    currency: CurrencyCode,
  })
  .meta({ id: "BalanceSnapshot" });
export type BalanceSnapshot = z.infer<typeof BalanceSnapshot>;

export const CoverageDay = z
  .object({ id: Uuid, account_id: Uuid, date: IsoDate, source: CoverageSource, completeness: Completeness })
  .meta({ id: "CoverageDay" });
export type CoverageDay = z.infer<typeof CoverageDay>;

/**
 * Extension (`GET /accounts/summaries`): an account with its balance snapshots and coverage days of one date window,
 * so that a view of many accounts reads them in one call rather than two per account.
 */
export const AccountSummary = z
  .object({
    account: Account,
    balances: z.array(BalanceSnapshot).meta({ description: "as_of_date within the window, oldest first" }),
    coverage: z.array(CoverageDay).meta({ description: "date within the window, oldest first" }),
  })
  .meta({ id: "AccountSummary" });
export type AccountSummary = z.infer<typeof AccountSummary>;

export const IntradayBalancePoint = z
  .object({
    id: Uuid,
    account_id: Uuid,
    timestamp: IsoDateTime,
    balance: DecimalString,
    currency: CurrencyCode,
    balance_type: BalanceType,
  })
  .meta({ id: "IntradayBalancePoint" });
export type IntradayBalancePoint = z.infer<typeof IntradayBalancePoint>;
