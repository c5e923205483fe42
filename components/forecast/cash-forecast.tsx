"use client";

import { useMemo } from "react";
import type { CashForecastView, ForecastVarianceView } from "@/lib/bff/queries/cash-forecast";
import type { ForecastInputs } from "@/lib/bff/areas/forecast/endpoints";
import { ExportLinks } from "./export-links";
import { FlowsSection } from "./flows-section";
import { ForecastNotices, ForecastToolbar } from "./forecast-header";
import { h2, section } from "./forecast-ui";
import { AccuracySection, KnownFlowsSection } from "./known-flows";
import { ManualLines } from "./manual-lines";
import { ScenariosSection } from "./scenarios-section";
import { useCashForecast } from "./use-cash-forecast";
import { ForecastVarianceTable } from "./variance-table";

/**
 * The cash forecast (docs/forecast.md): horizon 1–26 weeks by week or day, the group in the reporting currency with
 * its P10/P90 band, per company/currency/category rows, up to three scenarios against the base case (chart and
 * table with the lowest balance, its date and minimum-cash breaches), known flows, recurring payees with a switch
 * each, manual lines (add, delete, CSV import and export), and the accuracy in words. `canManage`: the user holds
 * `forecast.manage` (the server checks it again on every write). `variance`: forecast against actuals of the past
 * weeks (docs/forecast.md#variance); its section is left out when it could not be read.
 */
export function CashForecast({
  initial,
  inputs: initialInputs,
  canManage,
  variance,
}: {
  initial: CashForecastView;
  inputs: ForecastInputs;
  canManage: boolean;
  variance?: ForecastVarianceView | null;
}) {
  const f = useCashForecast(initial, initialInputs);
  const { view, inputs, write } = f;
  const rc = view.reporting_currency;
  const names = useMemo(() => new Map(view.companies.map((c) => [c.id, c.name])), [view.companies]);
  const categories = [...new Set(view.rows.map((r) => r.category))].sort();

  return (
    <div className="space-y-8" data-testid="cash-forecast">
      <ForecastToolbar {...f} />
      <ForecastNotices view={view} error={f.error} />

      <ScenariosSection
        view={view}
        scenarios={inputs.scenarios}
        names={names}
        categories={categories}
        chosen={f.chosen}
        onChoose={(ids) => {
          f.setChosen(ids);
          void f.reload({ scenarios: ids });
        }}
        weeks={f.weeks}
        canManage={canManage}
        write={write}
      />
      <FlowsSection view={view} names={names} categories={categories} weeks={f.weeks} granularity={f.granularity} />
      <AccuracySection view={view} />

      {variance && (
        <section className={section} aria-labelledby="fc-variance">
          <h2 id="fc-variance" className={h2}>
            Forecast against actuals
          </h2>
          <ForecastVarianceTable
            variance={variance}
            exports={<ExportLinks what="variance" query={{ kind: "variance", weeks: 8 }} testId="export-variance" />}
          />
        </section>
      )}
      <KnownFlowsSection view={view} names={names} canManage={canManage} write={write} />
      <ManualLines
        lines={inputs.lines}
        companies={view.companies}
        canManage={canManage}
        defaultCurrency={rc}
        write={write}
        onError={f.setError}
      />
    </div>
  );
}
