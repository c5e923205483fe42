"use client";

import { useState } from "react";
import { confirmWithPasskey, StepUpError, useStepUpStatus } from "@/components/auth/step-up";
import { bffFetch } from "@/components/data/bff-fetch";
import { toast } from "@/components/ui/toast";
import type { PoliciesView, RuleView } from "@/lib/bff/queries/policies";
import { bodyOf, fieldErrors, type Draft, type GroupDraft } from "./policy-draft";

const key = () => crypto.randomUUID();

/** `bffFetch` of one policy write under the passkey proof's `headers`, with a fresh Idempotency-Key. */
function send(headers: Record<string, string>, path: string, method: "POST" | "PUT" | "DELETE", body?: unknown) {
  return bffFetch(path, { method, ...(body === undefined ? {} : { body }), headers, idempotencyKey: key() });
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
  /** Deletes `path` after the user confirms `question`. */
  const removeAt = (question: string, what: string, id: string, path: string) => {
    if (!window.confirm(question)) return;
    void run(what, [id], (headers) => send(headers, path, "DELETE"));
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
    setView(await bffFetch<PoliciesView>("/api/policies")),
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
        send(headers, d.id ? `/api/policies/${d.id}` : "/api/policies", d.id ? "PUT" : "POST", bodyOf(d)),
      );
      if (ok) {
        setDraft(null);
        setErrors({});
      }
    },
    move: (r: RuleView, position: number) =>
      run("Moving the rule", [r.id], (headers) => send(headers, `/api/policies/${r.id}/move`, "POST", { position })),
    remove: (r: RuleView) =>
      removeAt(
        `Delete ${r.explanation}? Batches already submitted keep their policy.`,
        "Deleting the rule",
        r.id,
        `/api/policies/${r.id}`,
      ),
    saveGroup: async (g: GroupDraft) => {
      const ok = await run("Saving the group", [g.id ?? "new_group"], (headers) =>
        send(headers, g.id ? `/api/policies/groups/${g.id}` : "/api/policies/groups", g.id ? "PUT" : "POST", {
          name: g.name,
          user_ids: g.user_ids,
        }),
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
        `/api/policies/groups/${g.id}`,
      ),
  };
}

/** What `usePolicyActions` returns, for the parts of the admin. */
export type PolicyActions = ReturnType<typeof usePolicyActions>;
