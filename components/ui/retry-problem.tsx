"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { RotateCw } from "lucide-react";
import { ProblemState, type ProblemText } from "@/components/ui/states";

/** An error state with a retry: re-runs the server render of the page, keeping the URL state. */
export function RetryProblem({
  kind = "error",
  ...problem
}: ProblemText & {
  /** `not-found` reads as an error without a retry (retrying cannot make the item exist). */
  kind?: "error" | "forbidden" | "not-found";
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <div className="max-w-3xl space-y-3">
      <ProblemState kind={kind === "forbidden" ? "forbidden" : "error"} {...problem} />
      {kind === "error" && (
        <button
          type="button"
          onClick={() => start(() => router.refresh())}
          disabled={pending}
          className={
            "inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 " +
            "text-[13px] font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-60"
          }
        >
          <RotateCw className={`size-3.5 ${pending ? "animate-spin" : ""}`} aria-hidden />
          Retry
        </button>
      )}
    </div>
  );
}
