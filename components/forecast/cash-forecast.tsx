"use client";

import { useCallback, useMemo, useState, type FormEvent } from "react";
import Papa from "papaparse";
import type { CashForecastView, ForecastVarianceView } from "@/lib/bff/queries/cash-forecast";
import type { ManualLineRow, ScenarioRow } from "@/lib/forecast/store";
import { toCsv } from "@/lib/csv/csv-stream";
import { BffRequestError, callBff } from "@/components/data/bff-fetch";
import { endpointUrl, type Endpoint } from "@/lib/bff/endpoint";
import { forecastEndpoints, type ForecastInputs } from "@/lib/bff/areas/forecast/endpoints";
import { ForecastBandChart, ScenarioBalanceChart } from "@/components/charts/lazy";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { buttonClass } from "@/components/ui/button";
import { CsvFilePicker } from "@/components/ui/csv-file-picker";
import { Table, Td, Th } from "@/components/ui/table";
import { Form } from "@/components/ui/form";
import { ForecastVarianceTable } from "./variance-table";

export type { ForecastInputs };

/** A write of the forecast's inputs (`id`: the line's path parameter); true when it succeeded (then all is read again). */
type ForecastWrite = (
  e: Endpoint<"POST" | "PUT" | "DELETE">,
  init?: { id?: string; body?: unknown },
) => Promise<boolean>;

const field = "rounded-md border border-slate-300 px-2 py-1 text-[13px]";
const section = "space-y-3";
const h2 = "text-[15px] font-semibold text-slate-900";

/** The columns of the manual-line CSV (import and export). */
const LINE_COLUMNS = [
  "date",
  "amount",
  "currency",
  "company_id",
  "category",
  "recurrence",
  "end_date",
  "note",
] as const;

function message(e: unknown): string {
  if (e instanceof BffRequestError) {
    const errors = (e.details.errors ?? {}) as Record<string, string[]>;
    const named = Object.entries(errors).map(([k, v]) => `${k}: ${v.join(", ")}`);
    return named.length ? named.join("; ") : e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

function download(name: string, text: string, type = "text/csv") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

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
  const [view, setView] = useState(initial);
  const [inputs, setInputs] = useState(initialInputs);
  const [weeks, setWeeks] = useState(initial.weeks);
  const [granularity, setGranularity] = useState(initial.granularity);
  const [chosen, setChosen] = useState<string[]>(initial.scenarios.map((s) => s.id));
  const [filter, setFilter] = useState({ company: "", currency: "", category: "" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rc = view.reporting_currency;
  const names = useMemo(() => new Map(view.companies.map((c) => [c.id, c.name])), [view.companies]);

  const reload = useCallback(
    async (q: { weeks?: number; granularity?: "day" | "week"; scenarios?: string[]; refresh?: boolean } = {}) => {
      setBusy(true);
      setError(null);
      try {
        const [v, i] = await Promise.all([
          callBff(forecastEndpoints.forecast, {
            query: {
              weeks: q.weeks ?? weeks,
              granularity: q.granularity ?? granularity,
              scenarios: (q.scenarios ?? chosen).join(","),
              refresh: q.refresh ? 1 : undefined,
            },
          }),
          callBff(forecastEndpoints.inputs),
        ]);
        setView(v);
        setInputs(i);
      } catch (e) {
        setError(message(e));
      } finally {
        setBusy(false);
      }
    },
    [weeks, granularity, chosen],
  );

  const write: ForecastWrite = async (e, init = {}) => {
    setError(null);
    try {
      await callBff(e, {
        params: init.id === undefined ? undefined : { id: init.id },
        body: init.body,
        idempotencyKey: crypto.randomUUID(),
      });
      await reload();
      return true;
    } catch (e) {
      setError(message(e));
      return false;
    }
  };

  const rows = view.rows.filter(
    (r) =>
      (!filter.company || r.company === filter.company) &&
      (!filter.currency || r.currency === filter.currency) &&
      (!filter.category || r.category === filter.category),
  );
  const currencies = [...new Set(view.rows.map((r) => r.currency))].sort();
  const categories = [...new Set(view.rows.map((r) => r.category))].sort();
  const cases = [
    { id: "base", name: "Base case", balances: view.base },
    ...view.scenarios.map((s) => ({ id: s.id, name: s.name, balances: s.balances })),
  ];

  return (
    <div className="space-y-8" data-testid="cash-forecast">
      <div className="flex flex-wrap items-end gap-3 text-[13px]">
        <label className="flex flex-col gap-1">
          <span className="text-slate-600">Weeks ahead</span>
          <select
            className={field}
            value={weeks}
            onChange={(e) => {
              const w = Number(e.target.value);
              setWeeks(w);
              void reload({ weeks: w });
            }}
          >
            {Array.from({ length: 26 }, (_, i) => i + 1).map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-slate-600">By</span>
          <select
            className={field}
            value={granularity}
            onChange={(e) => {
              const g = e.target.value === "day" ? "day" : "week";
              setGranularity(g);
              void reload({ granularity: g });
            }}
          >
            <option value="week">week</option>
            <option value="day">day</option>
          </select>
        </label>
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={busy}
          onClick={() => void reload({ refresh: true })}
        >
          {busy ? "Working…" : "Recompute"}
        </button>
        <span className="text-slate-500">
          {view.from && (
            <>
              <BusinessDate date={view.from} /> – <BusinessDate date={view.to} />
            </>
          )}
          {" · computed "}
          {new Date(view.computed_at).toLocaleString()}
        </span>
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-[13px] text-red-800">
          {error}
        </p>
      )}
      {view.source === "api" && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900">
          There is no booking history to model yet: the positions below are the Treasury API&apos;s own forecast.
        </p>
      )}
      {(view.failed_companies.length > 0 || view.missing_rates.length > 0) && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900">
          {view.failed_companies.length > 0 && `Left out (could not be read): ${view.failed_companies.join(", ")}. `}
          {view.missing_rates.length > 0 &&
            `No stored rate to ${rc} for ${view.missing_rates.join(", ")}: not in the group total.`}
        </p>
      )}
      <p className="text-[13px] text-slate-600" data-testid="forecast-rates">
        Group figures in {rc}, each currency at its latest stored rate:{" "}
        {view.rates.length === 0
          ? "no other currency."
          : view.rates.map((r) => `1 ${r.currency} = ${r.rate} ${rc} (${r.date})`).join(" · ")}
      </p>

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
        <ScenarioPicker
          scenarios={inputs.scenarios}
          chosen={chosen}
          onChange={(ids) => {
            setChosen(ids);
            void reload({ scenarios: ids });
          }}
        />
        {canManage && (
          <NewScenario categories={categories} onSave={(body) => write(forecastEndpoints.addScenario, { body })} />
        )}
        <ExportLinks
          what="comparison"
          query={{ kind: "comparison", weeks, scenarios: chosen.join(",") }}
          testId="export-comparison"
        />
      </section>

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
          <select
            aria-label="Currency"
            className={field}
            value={filter.currency}
            onChange={(e) => setFilter({ ...filter, currency: e.target.value })}
          >
            <option value="">All currencies</option>
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          <select
            aria-label="Category"
            className={field}
            value={filter.category}
            onChange={(e) => setFilter({ ...filter, category: e.target.value })}
          >
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          <ExportLinks what="forecast" query={{ kind: "forecast", weeks, granularity }} testId="export-forecast" />
        </div>
        {!filter.company && !filter.currency && !filter.category ? (
          <Table label={`Group forecast in ${rc}`}>
            <thead>
              <tr>
                <Th>From</Th>
                <Th align="right">Net flow</Th>
                <Th align="right">P10</Th>
                <Th align="right">P90</Th>
              </tr>
            </thead>
            <tbody>
              {view.group.map((b) => (
                <tr key={b.start}>
                  <Td>
                    <BusinessDate date={b.start} />
                  </Td>
                  <Td align="right">
                    <Amount value={b.amount} currency={rc} signed />
                  </Td>
                  <Td align="right">
                    <Amount value={b.p10} currency={rc} signed />
                  </Td>
                  <Td align="right">
                    <Amount value={b.p90} currency={rc} signed />
                  </Td>
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
                <Th align="right">Net flow</Th>
                <Th align="right">P10</Th>
                <Th align="right">P90</Th>
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
                  <Td align="right">
                    <Amount value={r.amount} currency={r.currency} signed />
                  </Td>
                  <Td align="right">
                    <Amount value={r.p10} currency={r.currency} signed />
                  </Td>
                  <Td align="right">
                    <Amount value={r.p90} currency={r.currency} signed />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>

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

      <ManualLines
        lines={inputs.lines}
        companies={view.companies}
        canManage={canManage}
        defaultCurrency={rc}
        write={write}
        onError={setError}
      />
    </div>
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

function ManualLines({
  lines,
  companies,
  canManage,
  defaultCurrency,
  write,
  onError,
}: {
  lines: ManualLineRow[];
  companies: { id: string; name: string }[];
  canManage: boolean;
  defaultCurrency: string;
  write: ForecastWrite;
  onError: (m: string) => void;
}) {
  const empty = {
    date: "",
    amount: "",
    currency: defaultCurrency,
    company_id: companies[0]?.id ?? "",
    category: "",
    recurrence: "once",
    end_date: "",
    note: "",
  };
  const [form, setForm] = useState(empty);
  const [editing, setEditing] = useState<string | null>(null);
  const [file, setFile] = useState<string | null>(null);
  const names = new Map(companies.map((c) => [c.id, c.name]));
  const body = (f: typeof empty) => ({ ...f, end_date: f.end_date || null, note: f.note || null });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = editing
      ? await write(forecastEndpoints.changeLine, { id: editing, body: body(form) })
      : await write(forecastEndpoints.addLine, { body: body(form) });
    if (ok) {
      setForm(empty);
      setEditing(null);
    }
  };
  const exportCsv = () =>
    download(
      "forecast_manual_lines.csv",
      toCsv(
        lines,
        [...LINE_COLUMNS, "owner" as const].map((c) => ({ header: c, value: (l: ManualLineRow) => l[c] ?? "" })),
        true,
      ),
    );
  const importCsv = async (f: File) => {
    setFile(f.name);
    const parsed = Papa.parse<Record<string, string>>(await f.text(), { header: true, skipEmptyLines: true });
    let n = 0;
    for (const [i, row] of parsed.data.entries()) {
      const line = Object.fromEntries(LINE_COLUMNS.map((c) => [c, row[c] ?? ""])) as typeof empty;
      if (!(await write(forecastEndpoints.addLine, { body: body(line) }))) {
        onError(`Line ${i + 2} of ${f.name} was refused; ${n} line(s) before it were imported.`);
        return;
      }
      n++;
    }
  };
  // An updater, not a copy of this render's `form`: two inputs changed before React renders again (fast typing, a
  // test's fills) must both be kept.
  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [k]: value }));
  };
  return (
    <section className={section} aria-labelledby="fc-lines">
      <h2 id="fc-lines" className={h2}>
        Manual lines
      </h2>
      <Table label="Manual lines, one per row">
        <thead>
          <tr>
            <Th>Date</Th>
            <Th>Company</Th>
            <Th>Category</Th>
            <Th>Repeats</Th>
            <Th align="right">Amount</Th>
            <Th>Note</Th>
            <Th>Owner</Th>
            {canManage && <Th>Change</Th>}
          </tr>
        </thead>
        <tbody>
          {lines.length === 0 && (
            <tr>
              <Td colSpan={canManage ? 8 : 7}>No manual line yet.</Td>
            </tr>
          )}
          {lines.map((l) => (
            <tr key={l.id}>
              <Td>
                <BusinessDate date={l.date} />
              </Td>
              <Td>{names.get(l.company_id) ?? l.company_id}</Td>
              <Td>{l.category}</Td>
              <Td>
                {l.recurrence}
                {l.end_date && (
                  <>
                    {" until "}
                    <BusinessDate date={l.end_date} />
                  </>
                )}
              </Td>
              <Td align="right">
                <Amount value={l.amount} currency={l.currency} signed />
              </Td>
              <Td>{l.note}</Td>
              <Td>{l.owner}</Td>
              {canManage && (
                <Td>
                  <button
                    type="button"
                    className={buttonClass("ghost")}
                    onClick={() => {
                      setEditing(l.id);
                      setForm({
                        date: l.date,
                        amount: l.amount,
                        currency: l.currency,
                        company_id: l.company_id,
                        category: l.category,
                        recurrence: l.recurrence,
                        end_date: l.end_date ?? "",
                        note: l.note ?? "",
                      });
                    }}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={buttonClass("ghost")}
                    onClick={() => void write(forecastEndpoints.removeLine, { id: l.id })}
                  >
                    Delete
                  </button>
                </Td>
              )}
            </tr>
          ))}
        </tbody>
      </Table>
      {canManage && (
        <Form
          onSubmit={(e) => void submit(e)}
          className="grid grid-cols-2 gap-2 text-[13px] md:grid-cols-4"
          aria-label={editing ? "Edit manual line" : "New manual line"}
        >
          <label className="flex flex-col gap-1">
            <span className="text-slate-600">Date</span>
            <input className={field} type="date" value={form.date} onChange={set("date")} required />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-600">Amount (receipts +, payments −)</span>
            <input className={field} inputMode="decimal" value={form.amount} onChange={set("amount")} required />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-600">Currency</span>
            <input className={field} value={form.currency} onChange={set("currency")} maxLength={3} required />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-600">Company</span>
            <select className={field} value={form.company_id} onChange={set("company_id")}>
              {companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-600">Category</span>
            <input className={field} value={form.category} onChange={set("category")} required />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-600">Repeats</span>
            <select className={field} value={form.recurrence} onChange={set("recurrence")}>
              <option value="once">once</option>
              <option value="weekly">weekly</option>
              <option value="monthly">monthly</option>
              <option value="quarterly">quarterly</option>
            </select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-600">Until (optional)</span>
            <input className={field} type="date" value={form.end_date} onChange={set("end_date")} />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-600">Note</span>
            <input className={field} value={form.note} onChange={set("note")} />
          </label>
          <div className="col-span-2 flex flex-wrap gap-2 md:col-span-4">
            <button type="submit" className={buttonClass("primary")}>
              {editing ? "Save line" : "Add line"}
            </button>
            {editing && (
              <button
                type="button"
                className={buttonClass("secondary")}
                onClick={() => {
                  setEditing(null);
                  setForm(empty);
                }}
              >
                Cancel
              </button>
            )}
          </div>
        </Form>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={buttonClass("secondary")} onClick={exportCsv}>
          Export lines (CSV)
        </button>
        {canManage && (
          <CsvFilePicker
            fileName={file}
            accept=".csv,text/csv"
            testId="manual-lines-csv"
            onFile={(f) => void importCsv(f)}
          />
        )}
      </div>
    </section>
  );
}

/**
 * The CSV and XLSX download links of one export of `GET /api/forecast/export` (docs/forecast.md#exports), styled as
 * the shared secondary button; `testId` marks the CSV link, `${testId}-xlsx` the XLSX one.
 */
function ExportLinks({
  what,
  query,
  testId,
}: {
  what: string;
  query: Record<string, string | number>;
  testId: string;
}) {
  return (
    <span className="inline-flex flex-wrap gap-2">
      <a
        className={buttonClass("secondary")}
        href={endpointUrl(forecastEndpoints.export, {}, query)}
        download
        data-testid={testId}
      >
        Export {what} (CSV)
      </a>
      <a
        className={buttonClass("secondary")}
        href={endpointUrl(forecastEndpoints.export, {}, { ...query, format: "xlsx" })}
        download
        data-testid={`${testId}-xlsx`}
      >
        Export {what} (XLSX)
      </a>
    </span>
  );
}
