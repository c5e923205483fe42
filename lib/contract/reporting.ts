/** Reports (spec §2 CashflowDay / PositionDay / ForecastEntry; DESIGN.md "Reports"). */
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

export const ForecastEntry = z
  .object({ date: IsoDate, currency: CurrencyCode, amount: DecimalString })
  .meta({ id: "ForecastEntry" });
export type ForecastEntry = z.infer<typeof ForecastEntry>;
