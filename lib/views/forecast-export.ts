/**
 * The rows of the forecast CSV: what the forecast report shows
 * for the chosen range — per currency, the actual daily positions of the
 * range leading into the forecast entries (the forecast is per future date
 * and currency) — so the export matches the screen. Only
 * currencies with a forecast are shown, so only they are exported.
 */
import type { ForecastEntry, PositionDay } from "@treasury/contract";

/** One CSV row: `kind` says whether `amount` is an actual closing position or a forecast. */
export interface ForecastExportRow {
  date: string;
  currency: string;
  kind: "actual" | "forecast";
  amount: string;
  /** Forecast rows with a breakdown (an API extension): its parts, amount = opening + expected_flows − outgoing. */
  opening?: string;
  opening_date?: string;
  expected_flows?: string;
  outgoing_batches?: string;
  outgoing_today?: string;
}

/** CSV columns of the forecast export when the API gives a breakdown. */
export const FORECAST_CSV_COLUMNS = [
  "date",
  "currency",
  "kind",
  "amount",
  "opening",
  "opening_date",
  "expected_flows",
  "outgoing_batches",
  "outgoing_today",
] as const;

/**
 * Actual positions (within `from`..`to`, inclusive `YYYY-MM-DD`) and forecast
 * entries, by currency code, then date, actual before forecast on the same
 * date. Amounts are passed through as the API's decimal strings.
 */
export function forecastExportRows(
  positions: readonly PositionDay[],
  forecast: readonly ForecastEntry[],
  range: { from_date: string; to_date: string },
): ForecastExportRow[] {
  const shown = new Set(forecast.map((f) => f.currency));
  const rows: ForecastExportRow[] = [
    ...positions
      .filter((p) => shown.has(p.currency) && p.date >= range.from_date && p.date <= range.to_date)
      .map((p) => ({ date: p.date, currency: p.currency, kind: "actual" as const, amount: p.balance })),
    ...forecast.map((f) => ({
      date: f.date,
      currency: f.currency,
      kind: "forecast" as const,
      amount: f.amount,
      ...(f.breakdown ?? {}),
    })),
  ];
  const order = { actual: 0, forecast: 1 };
  return rows.sort(
    (a, b) => a.currency.localeCompare(b.currency) || a.date.localeCompare(b.date) || order[a.kind] - order[b.kind],
  );
}
