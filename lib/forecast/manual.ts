/**
 * Manual lines expanded into dated flows (docs/forecast.md#manual-lines): once, weekly (every 7 days), monthly
 * and quarterly (the first date's day of month, clamped to shorter months), until the end date or the horizon.
 */
import { addMonths, fromDay, toDay } from "./days";
import type { Flow, ManualLine } from "./types";

/**
 * The flows of `line` falling in `[from, to]` (`YYYY-MM-DD`, inclusive).
 * @throws when a date is not `YYYY-MM-DD` (lines are validated before they are stored).
 */
export function expandManualLine(line: ManualLine, from: string, to: string): Flow[] {
  const first = toDay(line.date);
  const lo = toDay(from);
  const hi = Math.min(toDay(to), line.end_date ? toDay(line.end_date) : Infinity);
  const out: Flow[] = [];
  for (let k = 0; ; k++) {
    let d: number;
    if (line.recurrence === "once") d = k === 0 ? first : Infinity;
    else if (line.recurrence === "weekly") d = first + 7 * k;
    else d = addMonths(first, (line.recurrence === "monthly" ? 1 : 3) * k);
    if (d > hi) break;
    if (d >= lo)
      out.push({
        date: fromDay(d),
        company: line.company,
        currency: line.currency,
        category: line.category,
        amount: line.amount,
        p10: line.amount,
        p90: line.amount,
        source: "manual",
        ref: line.id,
        label: line.note ?? undefined,
      });
  }
  return out;
}
