"use client";

import { useState, type ReactNode } from "react";
import type { ForecastVarianceView } from "@/lib/bff/queries/cash-forecast";
import type { VarianceFigures } from "@/lib/forecast/variance";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { Table, Td, Th } from "@/components/ui/table";

/**
 * Forecast against actuals per past week (docs/forecast.md#variance), in the reporting currency: the forecast as
 * the snapshot taken before the week began had it, the booked actual, the difference (actual − forecast) and the
 * percent, for all categories or one (the drill-down), with the window's WAPE. While no week can be compared yet the
 * table is hidden and a sentence says when the first comparison appears. Stacks to cards on phones.
 */
export function ForecastVarianceTable({ variance, exports }: { variance: ForecastVarianceView; exports?: ReactNode }) {
  const [category, setCategory] = useState("");
  const rc = variance.reporting_currency;
  if (variance.weeks.length === 0)
    return (
      <p className="text-[13px] text-slate-700" data-testid="variance-empty">
        No forecast snapshot covers a finished week yet. A snapshot is kept when the first forecast of each week is
        computed; the first comparison with actuals appears on{" "}
        {variance.first_comparison ? <BusinessDate date={variance.first_comparison} /> : "the Monday after next"}.
      </p>
    );
  const categories = variance.by_category.map((c) => c.category);
  const pick = (w: ForecastVarianceView["weeks"][number]): VarianceFigures | undefined =>
    category ? w.categories.find((c) => c.category === category) : w;
  const wape = category ? variance.by_category.find((c) => c.category === category)?.wape : variance.wape;
  return (
    <div className="space-y-3" data-testid="variance">
      <div className="flex flex-wrap items-end gap-3 text-[13px]">
        <label className="flex flex-col gap-1">
          <span className="text-slate-700">Category</span>
          <select
            className="rounded border border-slate-300 bg-white px-2 py-1"
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            data-testid="variance-category"
          >
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        {exports}
      </div>
      <p className="text-[13px] text-slate-800" data-testid="variance-wape">
        {wape === null || wape === undefined
          ? "No actuals in these weeks to measure the error against."
          : `Weighted absolute error (WAPE) over ${variance.weeks.length === 1 ? "this week" : `these ${variance.weeks.length} weeks`}: ${wape} %.`}
        {variance.missing_rates.length > 0 && ` Left out for want of a rate: ${variance.missing_rates.join(", ")}.`}
      </p>
      <Table label="Forecast against actuals by week">
        <thead>
          <tr>
            <Th>Week</Th>
            <Th align="right">Forecast</Th>
            <Th align="right">Actual</Th>
            <Th align="right">Difference</Th>
            <Th align="right">%</Th>
          </tr>
        </thead>
        <tbody>
          {variance.weeks.map((w) => {
            const f = pick(w) ?? { forecast: "0.00", actual: "0.00", difference: "0.00", percent: null };
            return (
              <tr key={w.week_start} data-testid={`variance-week-${w.week_start}`}>
                <Td>
                  {w.iso_week} (<BusinessDate date={w.week_start} />)
                </Td>
                <Td align="right">
                  <Amount value={f.forecast} currency={rc} />
                </Td>
                <Td align="right">
                  <Amount value={f.actual} currency={rc} />
                </Td>
                <Td align="right">
                  <Amount value={f.difference} currency={rc} signed />
                </Td>
                <Td align="right">{f.percent === null ? "—" : `${f.percent} %`}</Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <p className="text-[12px] text-slate-600">
        Forecast: the snapshot taken before each week began. Difference: actual − forecast (positive: more cash than
        forecast). % of the actual; — when the actual is 0.
      </p>
    </div>
  );
}
