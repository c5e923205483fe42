"use client";

import { useState } from "react";
import { confirmWithPasskey, StepUpError, useStepUpStatus } from "@/components/auth/step-up";
import { bffFetch } from "@/components/data/bff-fetch";
import { toast } from "@/components/ui/toast";
import type { PoliciesView, RuleView } from "@/lib/bff/queries/policies";
import { bodyOf, fieldErrors, type Draft, type GroupDraft } from "./policy-draft";

const key = () => crypto.randomUUID();

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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [noPasskey, setNoPasskey] = useState(false);
  const stepUp = useStepUpStatus();

  const reload = async () => setView(await bffFetch<PoliciesView>("/api/policies"));
  /**
   * Runs one policy change: first a passkey confirmation covering `subjects` (the rule or group id, `new_rule` /
   * `new_group` for a creation) when this user's changes need one, then `f` with the proof's headers.
   * @returns whether the change was made
   */
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
    void run(what, [id], (headers) => bffFetch(path, { method: "DELETE", headers, idempotencyKey: key() }));
  };

  return {
    view,
    draft,
    setDraft,
    group,
    setGroup,
    errors,
    busy,
    noPasskey,
    stepUp: stepUp.data,
    /** Closes the rule form and forgets its errors. */
    cancelRule: () => (setDraft(null), setErrors({})),
    saveRule: async (d: Draft) => {
      const ok = await run("Saving the rule", [d.id ?? "new_rule"], (headers) =>
        bffFetch(d.id ? `/api/policies/${d.id}` : "/api/policies", {
          method: d.id ? "PUT" : "POST",
          body: bodyOf(d),
          headers,
          idempotencyKey: key(),
        }),
      );
      if (ok) {
        setDraft(null);
        setErrors({});
      }
    },
    move: (r: RuleView, position: number) =>
      run("Moving the rule", [r.id], (headers) =>
        bffFetch(`/api/policies/${r.id}/move`, { method: "POST", body: { position }, headers, idempotencyKey: key() }),
      ),
    remove: (r: RuleView) =>
      removeAt(
        `Delete ${r.explanation}? Batches already submitted keep their policy.`,
        "Deleting the rule",
        r.id,
        `/api/policies/${r.id}`,
      ),
    saveGroup: async (g: GroupDraft) => {
      const ok = await run("Saving the group", [g.id ?? "new_group"], (headers) =>
        bffFetch(g.id ? `/api/policies/groups/${g.id}` : "/api/policies/groups", {
          method: g.id ? "PUT" : "POST",
          body: { name: g.name, user_ids: g.user_ids },
          headers,
          idempotencyKey: key(),
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
