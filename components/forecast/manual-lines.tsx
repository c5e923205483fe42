"use client";

import { useState, type FormEvent } from "react";
import Papa from "papaparse";
import type { ManualLineRow } from "@/lib/forecast/store";
import { forecastEndpoints } from "@/lib/bff/areas/forecast/endpoints";
import { toCsv } from "@/lib/csv/csv-stream";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { buttonClass } from "@/components/ui/button";
import { CsvFilePicker } from "@/components/ui/csv-file-picker";
import { Table, Td, Th } from "@/components/ui/table";
import { Form } from "@/components/ui/form";
import { download, field, h2, LINE_COLUMNS, section, type ForecastWrite } from "./forecast-ui";

/** A manual line in the form: its fields as typed (an empty end date or note is sent as null). */
type LineForm = Record<(typeof LINE_COLUMNS)[number], string>;

/**
 * The manual lines of the forecast (docs/forecast.md#manual-lines): their table, with edit and delete, the form of a
 * new or edited line (with `canManage`), the lines' CSV export and, with `canManage`, a CSV import that adds the
 * lines in order and stops at the first refused one (`onError` names it and how many came before).
 */
export function ManualLines({
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
  const empty: LineForm = {
    date: "",
    amount: "",
    currency: defaultCurrency,
    company_id: companies[0]?.id ?? "",
    category: "",
    recurrence: "once",
    end_date: "",
    note: "",
  };
  const [form, setForm] = useState<LineForm>(empty);
  const [editing, setEditing] = useState<string | null>(null);
  const [file, setFile] = useState<string | null>(null);
  const names = new Map(companies.map((c) => [c.id, c.name]));
  const body = (f: LineForm) => ({ ...f, end_date: f.end_date || null, note: f.note || null });
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
      const line = Object.fromEntries(LINE_COLUMNS.map((c) => [c, row[c] ?? ""])) as LineForm;
      if (!(await write(forecastEndpoints.addLine, { body: body(line) }))) {
        onError(`Line ${i + 2} of ${f.name} was refused; ${n} line(s) before it were imported.`);
        return;
      }
      n++;
    }
  };
  // An updater, not a copy of this render's `form`: two inputs changed before React renders again (fast typing, a
  // test's fills) must both be kept.
  const set = (k: keyof LineForm) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [k]: value }));
  };
  const edit = (l: ManualLineRow) => {
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
  };
  return (
    <section className={section} aria-labelledby="fc-lines">
      <h2 id="fc-lines" className={h2}>
        Manual lines
      </h2>
      <ManualLinesTable
        lines={lines}
        names={names}
        canManage={canManage}
        onEdit={edit}
        onDelete={(id) => void write(forecastEndpoints.removeLine, { id })}
      />
      {canManage && (
        <ManualLineForm
          form={form}
          set={set}
          editing={editing}
          companies={companies}
          onSubmit={submit}
          onCancel={() => {
            setEditing(null);
            setForm(empty);
          }}
        />
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

/** The manual lines, one per row, with Edit and Delete per line when `canManage`. */
function ManualLinesTable({
  lines,
  names,
  canManage,
  onEdit,
  onDelete,
}: {
  lines: ManualLineRow[];
  names: Map<string, string>;
  canManage: boolean;
  onEdit: (l: ManualLineRow) => void;
  onDelete: (id: string) => void;
}) {
  return (
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
                <button type="button" className={buttonClass("ghost")} onClick={() => onEdit(l)}>
                  Edit
                </button>
                <button type="button" className={buttonClass("ghost")} onClick={() => onDelete(l.id)}>
                  Delete
                </button>
              </Td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The form of a new manual line, or of the one being edited (`editing`: its id), with Cancel while editing. */
function ManualLineForm({
  form,
  set,
  editing,
  companies,
  onSubmit,
  onCancel,
}: {
  form: LineForm;
  set: (k: keyof LineForm) => (e: { target: { value: string } }) => void;
  editing: string | null;
  companies: { id: string; name: string }[];
  onSubmit: (e: FormEvent) => Promise<void>;
  onCancel: () => void;
}) {
  return (
    <Form
      onSubmit={(e) => void onSubmit(e)}
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
          <button type="button" className={buttonClass("secondary")} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </Form>
  );
}
