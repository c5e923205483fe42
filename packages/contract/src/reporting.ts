/** Reports (docs/treasury-api.md#resources: CashflowDay / PositionDay / ForecastEntry; docs/architecture.md#reports). */
import { z } from "zod";
import { CurrencyCode, DecimalString, IsoDate } from "./common";

export const CashflowDay = z
  .object({ date: IsoDate, currency: CurrencyCode, inflow: DecimalString, outflow: DecimalString, net: DecimalString })
  .meta({ id: "CashflowDay" });
export type CashflowDay = z.infer<typeof CashflowDay>;

export const PositionDay = z
  .object({ date: IsoDate, currency: CurrencyCode, balance: DecimalString })
  .meta({ id: "PositionDay" });
export type PositionDay = z.infer<typeof PositionDay>;

/**
 * Extension: what makes up a forecast amount, so that amount = opening + expected_flows − outgoing_batches.
 * `opening`: the latest actual position; `expected_flows`: the weekday-average net flows from the day after that
 * position up to this date (cumulative); `outgoing_batches`: unpaid outgoing batches due by this date (cumulative);
 * `outgoing_today`: the part of those due on this very date. Decimal strings in the currency's minor units.
 */
export const ForecastBreakdown = z
  .object({
    opening: DecimalString,
    opening_date: IsoDate,
    expected_flows: DecimalString,
    outgoing_batches: DecimalString,
    outgoing_today: DecimalString,
  })
  .meta({ id: "ForecastBreakdown" });
export type ForecastBreakdown = z.infer<typeof ForecastBreakdown>;

export const ForecastEntry = z
  .object({
    date: IsoDate,
    currency: CurrencyCode,
    amount: DecimalString,
    breakdown: ForecastBreakdown.optional().meta({
      description: "Extension: the parts of amount (opening + expected_flows − outgoing_batches)",
    }),
  })
  .meta({ id: "ForecastEntry" });
export type ForecastEntry = z.infer<typeof ForecastEntry>;
