"use client";

import { useState, type FormEvent } from "react";
import type { CashForecastView } from "@/lib/bff/queries/cash-forecast";
import type { ScenarioRow } from "@/lib/forecast/store";
import { forecastEndpoints } from "@/lib/bff/areas/forecast/endpoints";
import { ScenarioBalanceChart } from "@/components/charts/lazy";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { buttonClass } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import { Form } from "@/components/ui/form";
import { ExportLinks } from "./export-links";
import { field, h2, section, type ForecastWrite } from "./forecast-ui";

/**
 * The base case against up to three scenarios (docs/forecast.md#scenarios): the balance chart, the lowest balance
 * per case with its date, the closing balance and minimum-cash breaches, the picker of compared scenarios, a new
 * scenario (with `canManage`) and the comparison's export.
 */
export function ScenariosSection({
  view,
  scenarios,
  names,
  categories,
  chosen,
  onChoose,
  weeks,
  canManage,
  write,
}: {
  view: CashForecastView;
  scenarios: ScenarioRow[];
  names: Map<string, string>;
  categories: string[];
  chosen: string[];
  onChoose: (ids: string[]) => void;
  weeks: number;
  canManage: boolean;
  write: ForecastWrite;
}) {
  const rc = view.reporting_currency;
  const cases = [
    { id: "base", name: "Base case", balances: view.base },
    ...view.scenarios.map((s) => ({ id: s.id, name: s.name, balances: s.balances })),
  ];
  return (
    <section className={section} aria-labelledby="fc-scenarios">
      <h2 id="fc-scenarios" className={h2}>
        Base case and scenarios
      </h2>
      <ScenarioBalanceChart cases={cases.map((c) => ({ name: c.name, path: c.balances.path }))} currency={rc} />
      <Table label="Lowest balance per scenario">
        <thead>
          <tr>
            <Th>Case</Th>
            <Th align="right">Lowest balance</Th>
            <Th>On</Th>
            <Th align="right">Closing</Th>
            <Th>Below minimum cash</Th>
          </tr>
        </thead>
        <tbody>
          {cases.map((c) => (
            <tr key={c.id} data-testid={`case-${c.name}`} className={c.balances.breaches.length ? "bg-red-50" : ""}>
              <Td>{c.name}</Td>
              <Td align="right">
                <Amount value={c.balances.reporting.lowest.amount} currency={rc} />
              </Td>
              <Td>
                <BusinessDate date={c.balances.reporting.lowest.date} />
              </Td>
              <Td align="right">
                <Amount value={c.balances.reporting.closing} currency={rc} />
              </Td>
              <Td>
                {c.balances.breaches.length === 0
                  ? "—"
                  : c.balances.breaches.map((b) => (
                      <span key={b.company} className="block font-medium text-red-800">
                        {names.get(b.company) ?? b.company} from <BusinessDate date={b.first_breach} />
                      </span>
                    ))}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ScenarioPicker scenarios={scenarios} chosen={chosen} onChange={onChoose} />
      {canManage && (
        <NewScenario categories={categories} onSave={(body) => write(forecastEndpoints.addScenario, { body })} />
      )}
      <ExportLinks
        what="comparison"
        query={{ kind: "comparison", weeks, scenarios: chosen.join(",") }}
        testId="export-comparison"
      />
    </section>
  );
}

function ScenarioPicker({
  scenarios,
  chosen,
  onChange,
}: {
  scenarios: ScenarioRow[];
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  if (scenarios.length === 0) return null;
  return (
    <fieldset className="flex flex-wrap gap-3 text-[13px]">
      <legend className="mb-1 text-slate-600">Compare (up to three)</legend>
      {scenarios.map((s) => {
        const on = chosen.includes(s.id);
        return (
          <label key={s.id} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              checked={on}
              disabled={!on && chosen.length >= 3}
              onChange={() => onChange(on ? chosen.filter((x) => x !== s.id) : [...chosen, s.id])}
            />
            {s.name}
          </label>
        );
      })}
    </fieldset>
  );
}

/** A scenario with one adjustment: shift, scale or drop the flows of a category. */
function NewScenario({ categories, onSave }: { categories: string[]; onSave: (body: unknown) => Promise<boolean> }) {
  const [name, setName] = useState("");
  const [type, setType] = useState<"shift" | "percent" | "drop">("shift");
  const [category, setCategory] = useState("");
  const [value, setValue] = useState("10");
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const filter = category ? { category } : {};
    const adjustment =
      type === "shift"
        ? { type, filter, days: Number(value) }
        : type === "percent"
          ? { type, filter, percent: value }
          : { type, filter };
    if (await onSave({ name, adjustments: [adjustment] })) setName("");
  };
  return (
    <Form
      onSubmit={(e) => void submit(e)}
      className="flex flex-wrap items-end gap-2 text-[13px]"
      aria-label="New scenario"
    >
      <label className="flex flex-col gap-1">
        <span className="text-slate-600">Scenario name</span>
        <input className={field} value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-slate-600">Change</span>
        <select className={field} value={type} onChange={(e) => setType(e.target.value as typeof type)}>
          <option value="shift">shift by days</option>
          <option value="percent">change by %</option>
          <option value="drop">drop</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-slate-600">Category</span>
        <input className={field} list="fc-categories" value={category} onChange={(e) => setCategory(e.target.value)} />
        <datalist id="fc-categories">
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </label>
      {type !== "drop" && (
        <label className="flex flex-col gap-1">
          <span className="text-slate-600">{type === "shift" ? "Days" : "%"}</span>
          <input className={`${field} w-20`} value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
      )}
      <button type="submit" className={buttonClass("primary")}>
        Save scenario
      </button>
    </Form>
  );
}
