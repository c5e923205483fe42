"use client";

import { useEffect } from "react";
import { ProblemState } from "@/components/ui/states";

/** Catches a failing page inside the shell; the navigation stays usable. */
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="max-w-3xl space-y-3">
      <ProblemState
        title="This page failed to load"
        message={
          "Something went wrong while preparing this page. Try again; if it keeps failing, give support " +
          "the reference below."
        }
        requestId={error.digest}
      />
      <button
        type="button"
        onClick={reset}
        className={
          "h-8 rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-700 " +
          "hover:bg-slate-100"
        }
      >
        Try again
      </button>
    </div>
  );
}
