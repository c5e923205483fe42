"use client";

import Link from "next/link";
import { PasskeyBanner } from "@/components/auth/step-up-notice";
import type { PoliciesView } from "@/lib/bff/queries/policies";
import { GroupsSection } from "./groups-section";
import { RuleForm } from "./rule-form";
import { RulesTable } from "./rules-table";
import { usePolicyActions } from "./use-policy-actions";

/**
 * Approval policy admin (docs/guides/approval-policies.md): the ordered rules (add, edit, move, delete) and the
 * approver groups with their members. State and writes live in `usePolicyActions`; the parts beside this file.
 */
export function PoliciesAdmin({ initial }: { initial: PoliciesView }) {
  const a = usePolicyActions(initial);
  return (
    <div className="space-y-8">
      <PasskeyBanner status={a.stepUp} />
      {a.stepUp?.needed ? (
        <p className="text-xs text-slate-600" data-testid="policy-step-up-note">
          Every change asks for a confirmation with your passkey.
        </p>
      ) : null}
      {a.noPasskey ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-[13px] text-amber-900">
          Changing a policy needs a passkey confirmation, and you have no passkey.{" "}
          <Link href="/profile" className="underline">
            Add one on your profile page
          </Link>
          .
        </p>
      ) : null}
      <RulesTable a={a} />
      {a.draft ? <RuleForm a={a} draft={a.draft} /> : null}
      <GroupsSection a={a} />
    </div>
  );
}
