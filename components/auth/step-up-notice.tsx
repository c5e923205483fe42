"use client";

import Link from "next/link";
import { KeyRound, ShieldAlert } from "lucide-react";
import { StepUpError, useStepUpStatus, type StepUpStatus } from "./step-up";

const PROFILE = "/profile";

/**
 * The warning shown where decisions are taken when step-up is optional and the user has no passkey: "Add a passkey
 * to protect approvals", linking to the profile page. Nothing otherwise (also while the status loads).
 */
export function PasskeyBanner({ status }: { status?: StepUpStatus }) {
  const q = useStepUpStatus();
  const s = status ?? q.data;
  if (!s || s.enrolled || s.mode !== "optional") return null;
  return (
    <div
      role="status"
      className="mb-3 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-[13px] text-amber-900"
      data-testid="passkey-banner"
    >
      <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        <strong className="font-semibold">Add a passkey to protect approvals.</strong> Without one, anyone holding your
        session can approve.{" "}
        <Link href={PROFILE} className="font-medium underline">
          Add a passkey
        </Link>
      </span>
    </div>
  );
}

/** In a decision dialog: says that the confirm button asks for the passkey first, or that one is missing. */
export function StepUpHint({ status }: { status: StepUpStatus | undefined }) {
  if (!status) return null;
  if (status.needed && status.enrolled)
    return (
      <p className="mt-3 flex items-center gap-1.5 text-xs text-slate-600" data-testid="step-up-hint">
        <KeyRound className="size-3.5" aria-hidden />
        You confirm this with your passkey; one confirmation covers everything listed here for 5 minutes.
      </p>
    );
  if (status.needed)
    return (
      <p role="alert" className="mt-3 text-[13px] text-red-700" data-testid="step-up-hint">
        This needs a passkey confirmation, and you have no passkey.{" "}
        <Link href={PROFILE} className="font-medium underline">
          Add one on your profile page
        </Link>
        .
      </p>
    );
  return <PasskeyBanner status={status} />;
}

/** Why the passkey confirmation did not happen, with the way forward (a link to the profile page when none is enrolled). */
export function StepUpProblem({ error }: { error: StepUpError | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="mt-3 text-[13px] text-red-700" data-testid="step-up-error">
      {error.message}
      {error.kind === "no_passkey" && (
        <>
          {" "}
          <Link href={PROFILE} className="font-medium underline">
            Add a passkey on your profile page
          </Link>
          .
        </>
      )}
    </p>
  );
}
