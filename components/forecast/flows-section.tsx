"use client";

import { useState } from "react";
import type { CashForecastView } from "@/lib/bff/queries/cash-forecast";
import { ForecastBandChart } from "@/components/charts/lazy";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { Table, Td, Th } from "@/components/ui/table";
import { ExportLinks } from "./export-links";
import { field, h2, section } from "./forecast-ui";

/**
 * The forecast by bucket (docs/forecast.md#buckets): the group's P10/P90 band chart, and a table of the group in the
 * reporting currency, or, once a company, currency or category is picked, of those rows (at most 500); and the
 * forecast's export.
 */
export function FlowsSection({
  view,
  names,
  categories,
  weeks,
  granularity,
}: {
  view: CashForecastView;
  names: Map<string, string>;
  categories: string[];
  weeks: number;
  granularity: "day" | "week";
}) {
  const [filter, setFilter] = useState({ company: "", currency: "", category: "" });
  const rc = view.reporting_currency;
  const rows = view.rows.filter(
    (r) =>
      (!filter.company || r.company === filter.company) &&
      (!filter.currency || r.currency === filter.currency) &&
      (!filter.category || r.category === filter.category),
  );
  const currencies = [...new Set(view.rows.map((r) => r.currency))].sort();
  return (
    <section className={section} aria-labelledby="fc-flows">
      <h2 id="fc-flows" className={h2}>
        Forecast by {granularity}
      </h2>
      <ForecastBandChart points={view.group} currency={rc} />
      <div className="flex flex-wrap gap-2 text-[13px]">
        <select
          aria-label="Company"
          className={field}
          value={filter.company}
          onChange={(e) => setFilter({ ...filter, company: e.target.value })}
        >
          <option value="">Group ({rc})</option>
          {view.companies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <FilterSelect
          label="Currency"
          all="All currencies"
          value={filter.currency}
          options={currencies}
          onChange={(currency) => setFilter({ ...filter, currency })}
        />
        <FilterSelect
          label="Category"
          all="All categories"
          value={filter.category}
          options={categories}
          onChange={(category) => setFilter({ ...filter, category })}
        />
        <ExportLinks what="forecast" query={{ kind: "forecast", weeks, granularity }} testId="export-forecast" />
      </div>
      {!filter.company && !filter.currency && !filter.category ? (
        <Table label={`Group forecast in ${rc}`}>
          <thead>
            <tr>
              <Th>From</Th>
              <BandHeads />
            </tr>
          </thead>
          <tbody>
            {view.group.map((b) => (
              <tr key={b.start}>
                <Td>
                  <BusinessDate date={b.start} />
                </Td>
                <BandCells band={b} currency={rc} />
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <Table label="Forecast per company, currency and category">
          <thead>
            <tr>
              <Th>From</Th>
              <Th>Company</Th>
              <Th>Category</Th>
              <BandHeads />
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 500).map((r) => (
              <tr key={`${r.start}|${r.company}|${r.currency}|${r.category}`}>
                <Td>
                  <BusinessDate date={r.start} />
                </Td>
                <Td>{names.get(r.company) ?? r.company}</Td>
                <Td>{r.category}</Td>
                <BandCells band={r} currency={r.currency} />
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

/** The headers of `BandCells`' three columns: net flow, P10, P90, right-aligned. */
function BandHeads() {
  return (
    <>
      <Th align="right">Net flow</Th>
      <Th align="right">P10</Th>
      <Th align="right">P90</Th>
    </>
  );
}

/** The net flow of a period and its P10–P90 band, three right-aligned signed amounts in `currency`. */
function BandCells({ band, currency }: { band: { amount: string; p10: string; p90: string }; currency: string }) {
  return (
    <>
      {[band.amount, band.p10, band.p90].map((value, k) => (
        <Td key={k} align="right">
          <Amount value={value} currency={currency} signed />
        </Td>
      ))}
    </>
  );
}

/** A filter of the flows: `all` (the empty value) or one of `options`, named `label` for assistive technology. */
function FilterSelect({
  label,
  all,
  value,
  options,
  onChange,
}: {
  label: string;
  all: string;
  value: string;
  options: string[];
  onChange: (value: string) => void;
}) {
  return (
    <select aria-label={label} className={field} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{all}</option>
      {options.map((c) => (
        <option key={c}>{c}</option>
      ))}
    </select>
  );
}
