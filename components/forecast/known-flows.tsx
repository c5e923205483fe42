"use client";

import type { CashForecastView } from "@/lib/bff/queries/cash-forecast";
import { forecastEndpoints } from "@/lib/bff/areas/forecast/endpoints";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { Table, Td, Th } from "@/components/ui/table";
import { h2, section, type ForecastWrite } from "./forecast-ui";

/** How good the forecast has been, in words (docs/forecast.md#backtest-and-accuracy), and its weak groups. */
export function AccuracySection({ view }: { view: CashForecastView }) {
  return (
    <section className={section} aria-labelledby="fc-accuracy">
      <h2 id="fc-accuracy" className={h2}>
        How good the forecast has been
      </h2>
      <p className="text-[13px] text-slate-800" data-testid="accuracy-summary">
        {view.accuracy.all?.summary ?? "Not enough history to measure the forecast yet."}
      </p>
      {view.accuracy.by_category.length > 0 && (
        <ul className="list-disc space-y-1 pl-5 text-[13px] text-slate-700">
          {view.accuracy.by_category.map((a) => (
            <li key={a.group}>{a.summary}</li>
          ))}
        </ul>
      )}
      {view.accuracy.weak.length > 0 && (
        <p className="text-[13px] text-amber-900">
          Weak: {view.accuracy.weak.map((a) => a.group).join(", ")} — treat these figures as rough.
        </p>
      )}
    </section>
  );
}

/**
 * The known flows of the horizon (batches and manual lines, at most 200) and the recurring payees found in the
 * history, each with its switch (with `canManage`; docs/forecast.md#recurring-payees).
 */
export function KnownFlowsSection({
  view,
  names,
  canManage,
  write,
}: {
  view: CashForecastView;
  names: Map<string, string>;
  canManage: boolean;
  write: ForecastWrite;
}) {
  return (
    <section className={section} aria-labelledby="fc-known">
      <h2 id="fc-known" className={h2}>
        Known flows and recurring payees
      </h2>
      <Table label="Known flows">
        <thead>
          <tr>
            <Th>Date</Th>
            <Th>Company</Th>
            <Th>What</Th>
            <Th align="right">Amount</Th>
          </tr>
        </thead>
        <tbody>
          {view.known.length === 0 && (
            <tr>
              <Td colSpan={4}>No batch or manual line in the horizon.</Td>
            </tr>
          )}
          {view.known.slice(0, 200).map((f, i) => (
            <tr key={`${f.ref}|${f.date}|${i}`}>
              <Td>
                <BusinessDate date={f.date} />
              </Td>
              <Td>{names.get(f.company) ?? f.company}</Td>
              <Td>
                {f.source === "batch" ? "Batch" : "Manual"}: {f.label ?? f.category}
              </Td>
              <Td align="right">
                <Amount value={f.amount} currency={f.currency} signed />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Table label="Recurring payees">
        <thead>
          <tr>
            <Th>Counterparty</Th>
            <Th>Company</Th>
            <Th>Every</Th>
            <Th align="right">Amount</Th>
            <Th>In the forecast</Th>
          </tr>
        </thead>
        <tbody>
          {view.recurring.length === 0 && (
            <tr>
              <Td colSpan={5}>No recurring payee found in the history.</Td>
            </tr>
          )}
          {view.recurring.map((p) => (
            <tr key={p.id}>
              <Td>{p.counterparty}</Td>
              <Td>{names.get(p.company) ?? p.company}</Td>
              <Td>{p.cadence}</Td>
              <Td align="right">
                <Amount value={p.amount} currency={p.currency} signed />
              </Td>
              <Td>
                <input
                  type="checkbox"
                  aria-label={`Include ${p.counterparty} in the forecast`}
                  checked={p.enabled}
                  disabled={!canManage}
                  onChange={(e) =>
                    void write(forecastEndpoints.settings, { body: { id: p.id, enabled: e.target.checked } })
                  }
                />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}
