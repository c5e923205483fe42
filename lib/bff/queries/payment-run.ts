/**
 * What the new-batch and edit-batch forms need besides the batch itself: the
 * company's active accounts with their latest available balance (the debtor
 * account choice), the counterparties the typeahead offers (verified and
 * pending, never rejected or disabled), today where the company is, and the
 * payment-run extensions the API advertises.
 */
import "server-only";
import type { Account } from "@treasury/contract";
import type { DebtorAccountOption, PayeeOption, PaymentRunSupport } from "../../views/payment-run";
import { collectAll } from "../../treasury-client";
import { listCounterparties } from "../../counterparties/counterparties";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import { can } from "../../auth/roles";
import { companyCall, type BffContext } from "../context";
import { mapLimit } from "./map-limit";
import { paymentRunSupport } from "./payments";
import { availableBalanceOf, companyToday } from "./risk";

export interface PaymentRunForm {
  today: string;
  currencies: string[];
  accounts: DebtorAccountOption[];
  payees: PayeeOption[];
  support: PaymentRunSupport;
}

/** Form data of the selected company (`ctx.company`). Balances are read for at most 50 accounts, 4 at a time. */
export async function paymentRunForm(ctx: BffContext): Promise<PaymentRunForm> {
  const company = ctx.company;
  if (!company) throw new Error("paymentRunForm needs a selected company");
  const today = companyToday(company.country);
  const call = companyCall(ctx);
  const [all, support, payees] = await Promise.all([
    collectAll(treasury().listAccounts(call, { pageSize: 1000 }), { maxPages: 5 }),
    paymentRunSupport(),
    can(ctx.user.roles, "counterparties.read")
      ? dashboardDb()
          .then((db) => listCounterparties(db, ctx.user, company.id, { limit: 500 }))
          .catch(() => [])
      : Promise.resolve([]),
  ]);
  const active = all
    .filter((a: Account) => a.status !== "closed")
    .sort((a, b) => a.currency.localeCompare(b.currency) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .slice(0, 50);
  const balances = await mapLimit(active, 4, (a) => availableBalanceOf(call, a.id, today));
  return {
    today,
    currencies: [...new Set(active.map((a) => a.currency))].sort(),
    accounts: active.map((a, i) => ({
      id: a.id,
      name: a.name,
      currency: a.currency,
      iban: a.iban_masked,
      available_balance: balances[i]?.balance ?? null,
      available_as_of: balances[i]?.as_of_date ?? null,
    })),
    payees: payees
      .filter((p) => p.status === "verified" || p.status === "pending_verification")
      .map((p) => ({
        id: p.id,
        name: p.name,
        iban: p.iban,
        bic: p.bic,
        status: p.status as PayeeOption["status"],
        defaultRemittance: p.defaultRemittance,
      })),
    support,
  };
}
