"use client";

import { useId, useRef, type ReactNode } from "react";
import { ArrowDown, ArrowUp, Pencil, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useRulesEditor, type RuleDraft, type RulesEditor, type RulesEditorOptions } from "./use-rules-editor";
import { Form } from "@/components/ui/form";
import { STACK_TABLE, scrollRegionProps, useStackLabels } from "@/components/ui/table";

const td = "border-b border-slate-100 px-3 py-2 align-top text-[13px]";
const th = "border-b border-slate-200 px-3 py-2 text-left text-xs font-medium text-slate-600";

/** A column of the rules table. */
export interface RuleColumn<R> {
  header: string;
  cell(rule: R): ReactNode;
  /** The cell names the row (a row header, in the weight of a name). */
  rowHeader?: boolean;
}

/** The props of `OrderedRulesAdmin`: the editor's options (see `RulesEditorOptions`) and what the page shows. */
export interface OrderedRulesAdminProps<R extends { id: string }, D extends RuleDraft, P> extends Omit<
  RulesEditorOptions<R, D, P>,
  "preview"
> {
  /** Shown above the list (e.g. a notice of what the rules can and cannot do). */
  intro?: ReactNode;
  list: {
    heading: string;
    /** Said instead of the table when there is no rule. */
    empty: string;
    testId: string;
    rowTestId?: string;
    columns: RuleColumn<R>[];
    /** A rule's name in the labels of its buttons ("Edit <name>", "Move <name> up"). */
    nameOf(rule: R): string;
  };
  form: {
    newHeading: string;
    editHeading: string;
    /** The submit button's text for a new rule and for an edited one. */
    addLabel: string;
    saveLabel: string;
    testId?: string;
    errorTestId?: string;
    saveTestId?: string;
    /** The fields of the draft; `set` changes some of them. */
    fields(draft: D, set: (patch: Partial<D>) => void): ReactNode;
  };
  /** A test of the draft that a save needs first (see `RulesEditorOptions.preview`), and how its answer reads. */
  preview?: {
    button: string;
    testId: string;
    request(draft: D, body: unknown): Promise<P>;
    render(preview: P, draft: D): ReactNode;
  };
}

/**
 * The admin editor of an ordered list of rules (the first that applies wins): the table of rules with edit, delete
 * and, when `movable`, move up / down per row, and the form of a new or edited rule with an optional preview that
 * a save needs. Each kind of rule brings its columns, fields, texts and routes; the requests are `useRulesEditor`'s.
 */
export function OrderedRulesAdmin<R extends { id: string }, D extends RuleDraft, P>(
  props: OrderedRulesAdminProps<R, D, P>,
) {
  const editor = useRulesEditor<R, D, P>({ ...props, preview: props.preview?.request });
  return (
    <div className="space-y-6">
      {props.intro}
      <RulesTable editor={editor} props={props} />
      <RuleForm editor={editor} props={props} />
    </div>
  );
}

/** What the table and the form show: the editor's state and the page's props. */
interface Parts<R extends { id: string }, D extends RuleDraft, P> {
  editor: RulesEditor<R, D, P>;
  props: OrderedRulesAdminProps<R, D, P>;
}

function RulesTable<R extends { id: string }, D extends RuleDraft, P>({
  editor,
  props: { list, movable = false },
}: Parts<R, D, P>) {
  const headingId = useId();
  const tableRef = useRef<HTMLTableElement>(null);
  useStackLabels(tableRef);
  const { rules, busy } = editor;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="mb-2 text-sm font-semibold text-slate-800">
        {list.heading}
      </h2>
      {rules.length === 0 ? (
        <p className="text-[13px] text-slate-600">{list.empty}</p>
      ) : (
        // relative (in scrollRegionProps): the header's sr-only text (absolutely placed) stays inside the scroll box;
        // else it widens a phone's page. A named tab stop, since its buttons are disabled until hydration. Below md
        // each rule is a card (STACK_TABLE): its name, its fields one a line after their column's name, and its
        // buttons in view without a sideways scroll (docs/architecture.md#phones).
        <div {...scrollRegionProps(list.heading, { framed: false })}>
          <table ref={tableRef} className={`w-full md:min-w-[480px] ${STACK_TABLE}`} data-testid={list.testId}>
            <thead>
              <tr>
                {list.columns.map((c) => (
                  <th key={c.header} className={th} scope="col">
                    {c.header}
                  </th>
                ))}
                <th className={th} scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r, i) => {
                const name = list.nameOf(r);
                return (
                  <tr key={r.id} data-testid={list.rowTestId}>
                    {list.columns.map((c) =>
                      c.rowHeader ? (
                        <th key={c.header} scope="row" className={`${td} text-left font-medium`}>
                          {c.cell(r)}
                        </th>
                      ) : (
                        <td key={c.header} className={td}>
                          {c.cell(r)}
                        </td>
                      ),
                    )}
                    <td className={`${td} whitespace-nowrap text-right`} data-testid="rule-actions">
                      {movable ? (
                        <>
                          {/* Positions are 1-based: row i is at i + 1. */}
                          <Button
                            variant="ghost"
                            aria-label={`Move ${name} up`}
                            disabled={busy || i === 0}
                            onClick={() => void editor.move(r, i)}
                          >
                            <ArrowUp size={14} aria-hidden />
                          </Button>
                          <Button
                            variant="ghost"
                            aria-label={`Move ${name} down`}
                            disabled={busy || i === rules.length - 1}
                            onClick={() => void editor.move(r, i + 2)}
                          >
                            <ArrowDown size={14} aria-hidden />
                          </Button>
                        </>
                      ) : null}
                      <Button
                        variant="ghost"
                        aria-label={`Edit ${name}`}
                        disabled={busy}
                        onClick={() => editor.edit(r)}
                      >
                        <Pencil size={14} aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        aria-label={`Delete ${name}`}
                        disabled={busy}
                        onClick={() => void editor.remove(r)}
                      >
                        <Trash2 size={14} aria-hidden />
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function RuleForm<R extends { id: string }, D extends RuleDraft, P>({
  editor,
  props: { form, preview },
}: Parts<R, D, P>) {
  const headingId = useId();
  const { draft, busy, error } = editor;
  const editing = draft.id !== null;
  return (
    <Form
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid={form.testId}
      onSubmit={(e) => {
        e.preventDefault();
        // Enter in a field previews first when a save needs a preview.
        void (editor.canSave ? editor.save() : editor.runPreview());
      }}
    >
      <h2 id={headingId} className="mb-3 text-sm font-semibold text-slate-800">
        {editing ? form.editHeading : form.newHeading}
      </h2>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">{form.fields(draft, editor.set)}</div>
      {error ? (
        <p role="alert" className="mt-3 text-[13px] text-red-700" data-testid={form.errorTestId}>
          {error}
        </p>
      ) : null}
      {preview && editor.preview !== null ? (
        <p role="status" className="mt-3 text-[13px] text-slate-800" data-testid={preview.testId}>
          {preview.render(editor.preview, draft)}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {preview ? (
          <Button type="button" variant="secondary" disabled={busy} onClick={() => void editor.runPreview()}>
            {preview.button}
          </Button>
        ) : null}
        <Button type="submit" variant="primary" pending={busy} disabled={!editor.canSave} data-testid={form.saveTestId}>
          {editing ? form.saveLabel : form.addLabel}
        </Button>
        {editing ? (
          <Button type="button" disabled={busy} onClick={editor.cancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
