"use client";

import { useState } from "react";
import { BffRequestError, callBff } from "@/components/data/bff-fetch";
import type { Endpoint } from "@/lib/bff/endpoint";

/** A draft in the rule form: the edited rule's id (null for a new rule) and its fields as typed. */
export interface RuleDraft {
  id: string | null;
}

/**
 * The BFF endpoints of a kind of admin rule (its area's declarations, docs/architecture.md#the-bff-declared-per-area):
 * `list` answers `{ rules: R[] }` in order, `add` creates, `change` (PUT) replaces and `remove` (DELETE) removes one
 * rule; `move` (POST `{ position }`, 1-based) answers `{ rules }` in the new order.
 */
export interface RuleEndpoints {
  list: Endpoint<"GET">;
  add: Endpoint<"POST">;
  change: Endpoint<"PUT", `${string}/[id]`>;
  remove: Endpoint<"DELETE", `${string}/[id]`>;
  move?: Endpoint<"POST", `${string}/[id]/move`>;
}

/** What the rules editor needs of a kind of admin rule and its BFF routes. */
export interface RulesEditorOptions<R extends { id: string }, D extends RuleDraft, P> {
  /** The rules as the page loaded them, in the order they are tried. */
  initial: R[];
  /** The rules' BFF endpoints; `move` is needed when `movable`. */
  endpoints: RuleEndpoints;
  /** The form of a new rule. */
  empty: D;
  /** The form of an existing rule. */
  draftOf(rule: R): D;
  /** The PUT / POST (and preview) body of a draft. */
  bodyOf(draft: D): unknown;
  /** The question asked before a rule is deleted (declined: nothing is sent). */
  confirmDelete(rule: R): string;
  /** Field names of a 400's `details.errors` in words (e.g. `min_score` → "Minimum score"); others as named. */
  fieldLabels?: Readonly<Record<string, string>>;
  /** The rules can be moved up and down (the order is the admin's, not the creation order). */
  movable?: boolean;
  /**
   * Tests a draft before it can be saved: a save needs the answer for the draft as it is now, and any change of a
   * field asks for a new one.
   */
  preview?: (draft: D, body: unknown) => Promise<P>;
}

/**
 * A refusal in words for the rule form: a 400's field errors as `field: message` joined by `; ` (fields named by
 * `labels` when it has them), else the BFF's message; anything that is not a BFF answer (no network) is
 * "Something went wrong.".
 */
export function ruleProblem(err: unknown, labels: Readonly<Record<string, string>> = {}): string {
  if (!(err instanceof BffRequestError)) return "Something went wrong.";
  const errors = (err.details as { errors?: Record<string, string[]> }).errors;
  if (!errors) return err.message;
  return Object.entries(errors)
    .map(([field, messages]) => `${labels[field] ?? field}: ${messages.join(", ")}`)
    .join("; ");
}

/**
 * The state and actions of an ordered-rules admin page: the rules, the draft being written, the preview of it,
 * the last refusal and whether a request runs (one at a time; each clears the last refusal). After a save or a
 * delete the rules are read again; a move answers the new order itself. Every write carries its own
 * Idempotency-Key.
 */
export function useRulesEditor<R extends { id: string }, D extends RuleDraft, P>(opts: RulesEditorOptions<R, D, P>) {
  const { endpoints: e, empty } = opts;
  const [rules, setRules] = useState(opts.initial);
  const [draft, setDraft] = useState<D>(empty);
  const [preview, setPreview] = useState<P | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(ruleProblem(e, opts.fieldLabels));
    } finally {
      setBusy(false);
    }
  };
  const reload = async () => setRules((await callBff<string, unknown, { rules: R[] }>(e.list)).rules);
  const write = <T>(endpoint: Endpoint, id?: string, body?: unknown) =>
    callBff<string, unknown, T>(endpoint, {
      params: id === undefined ? undefined : { id },
      body,
      idempotencyKey: crypto.randomUUID(),
    });
  /** Puts a draft in the form; the preview of the one before is gone. */
  const load = (d: D) => {
    setDraft(d);
    setPreview(null);
  };

  return {
    rules,
    draft,
    preview,
    error,
    busy,
    /** Changes fields of the draft (a preview no longer holds). */
    set: (patch: Partial<D>) => {
      setDraft((d) => ({ ...d, ...patch }));
      setPreview(null);
    },
    /** Starts editing a rule. */
    edit: (rule: R) => load(opts.draftOf(rule)),
    /** Leaves the edit: the form is a new rule again. */
    cancel: () => load(empty),
    /** A save may be sent: the kind needs no preview, or the draft as it is now has one (a running request is `busy`). */
    canSave: !opts.preview || preview !== null,
    runPreview: () =>
      run(async () => {
        if (opts.preview) setPreview(await opts.preview(draft, opts.bodyOf(draft)));
      }),
    save: () =>
      run(async () => {
        if (draft.id) await write(e.change, draft.id, opts.bodyOf(draft));
        else await write(e.add, undefined, opts.bodyOf(draft));
        load(empty);
        await reload();
      }),
    /** Moves a rule to `position` (1 = tried first). */
    move: (rule: R, position: number) =>
      run(async () => {
        if (!e.move) throw new Error("useRulesEditor: a movable kind of rule needs its move endpoint");
        setRules((await write<{ rules: R[] }>(e.move, rule.id, { position })).rules);
      }),
    remove: (rule: R) =>
      run(async () => {
        if (!window.confirm(opts.confirmDelete(rule))) return;
        await write(e.remove, rule.id);
        await reload();
      }),
  };
}

/** The editor's state and actions (see `useRulesEditor`). */
export type RulesEditor<R extends { id: string }, D extends RuleDraft, P> = ReturnType<typeof useRulesEditor<R, D, P>>;
