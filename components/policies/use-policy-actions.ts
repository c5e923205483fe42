"use client";

import { useState } from "react";
import { confirmWithPasskey, StepUpError, useStepUpStatus } from "@/components/auth/step-up";
import { callBff } from "@/components/data/bff-fetch";
import { toast } from "@/components/ui/toast";
import { policiesEndpoints as e } from "@/lib/bff/areas/policies/endpoints";
import type { Endpoint, HttpMethod, PathParams } from "@/lib/bff/endpoint";
import type { PoliciesView, RuleView } from "@/lib/bff/queries/policies";
import { bodyOf, fieldErrors, type Draft, type GroupDraft } from "./policy-draft";

const key = () => crypto.randomUUID();

/** `callBff` of one policy write (`endpoint`, its path `params`) under the passkey proof's `headers`, with a fresh Idempotency-Key. */
function send<P extends string>(
  headers: Record<string, string>,
  endpoint: Endpoint<HttpMethod, P>,
  params: PathParams<P> | undefined,
  body?: unknown,
) {
  return callBff(endpoint, { params, ...(body === undefined ? {} : { body }), headers, idempotencyKey: key() });
}

/**
 * Runs policy changes one at a time: `busy` while one runs, the field errors and passkey state of the last refusal.
 * `run(what, subjects, f)` asks for a passkey confirmation covering `subjects` (the rule or group id, `new_rule` /
 * `new_group` for a creation) when this user's changes need one, then calls `f` with the proof's headers, then
 * `reload`; a failure is a toast naming `what`. @returns (from `run`) whether the change was made
 */
function usePolicyRun(reload: () => Promise<void>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [noPasskey, setNoPasskey] = useState(false);
  const stepUp = useStepUpStatus();
  const run = async (what: string, subjects: string[], f: (headers: Record<string, string>) => Promise<unknown>) => {
    setBusy(true);
    try {
      const headers = await confirmWithPasskey({ action: "approval_policy.change", subjects }, stepUp.data);
      await f(headers);
      await reload();
      return true;
    } catch (err) {
      setErrors(fieldErrors(err));
      if (err instanceof StepUpError && err.kind === "no_passkey") setNoPasskey(true);
      toast.error(err instanceof Error ? `${what}: ${err.message}` : `${what} failed`);
      return false;
    } finally {
      setBusy(false);
    }
  };
  /** Deletes item `id` through `endpoint` (a rule's or a group's DELETE) after the user confirms `question`. */
  const removeAt = (question: string, what: string, id: string, endpoint: typeof e.remove | typeof e.removeGroup) => {
    if (!window.confirm(question)) return;
    void run(what, [id], (headers) => send(headers, endpoint, { id }));
  };
  return { run, removeAt, errors, setErrors, busy, noPasskey, stepUp: stepUp.data };
}

/**
 * The approval-policy admin's state and writes (docs/guides/approval-policies.md): the current view, the rule and
 * group being edited, field errors of the last refused save, and one function per change. Every change is
 * confirmed with a passkey first when this user's changes need one (lib/bff/step-up.ts enforces it on the server),
 * then sent with a fresh Idempotency-Key, then the view is read again.
 */
export function usePolicyActions(initial: PoliciesView) {
  const [view, setView] = useState(initial);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [group, setGroup] = useState<GroupDraft | null>(null);
  const { run, removeAt, errors, setErrors, busy, noPasskey, stepUp } = usePolicyRun(async () =>
    setView(await callBff(e.view)),
  );

  return {
    view,
    draft,
    setDraft,
    group,
    setGroup,
    errors,
    busy,
    noPasskey,
    stepUp,
    /** Closes the rule form and forgets its errors. */
    cancelRule: () => (setDraft(null), setErrors({})),
    saveRule: async (d: Draft) => {
      const ok = await run("Saving the rule", [d.id ?? "new_rule"], (headers) =>
        d.id ? send(headers, e.change, { id: d.id }, bodyOf(d)) : send(headers, e.add, undefined, bodyOf(d)),
      );
      if (ok) {
        setDraft(null);
        setErrors({});
      }
    },
    move: (r: RuleView, position: number) =>
      run("Moving the rule", [r.id], (headers) => send(headers, e.move, { id: r.id }, { position })),
    remove: (r: RuleView) =>
      removeAt(
        `Delete ${r.explanation}? Batches already submitted keep their policy.`,
        "Deleting the rule",
        r.id,
        e.remove,
      ),
    saveGroup: async (g: GroupDraft) => {
      const ok = await run("Saving the group", [g.id ?? "new_group"], (headers) =>
        g.id
          ? send(headers, e.changeGroup, { id: g.id }, { name: g.name, user_ids: g.user_ids })
          : send(headers, e.addGroup, undefined, { name: g.name, user_ids: g.user_ids }),
      );
      if (ok) {
        setGroup(null);
        setErrors({});
      }
    },
    removeGroup: (g: { id: string; name: string }) =>
      removeAt(
        `Delete the group ${g.name}? Rules naming it keep it, and no one is eligible through it.`,
        "Deleting the group",
        g.id,
        e.removeGroup,
      ),
  };
}

/** What `usePolicyActions` returns, for the parts of the admin. */
export type PolicyActions = ReturnType<typeof usePolicyActions>;
