import { notFound } from "next/navigation";
import { EmptyState, ProblemState } from "./states";

/** Renders a failed page load (no access, company problem, API down, unknown item) inside the shell. */
export function PageProblem({
  load,
}: {
  load: {
    kind: "forbidden" | "error" | "no-company" | "not-found";
    title: string;
    message: string;
    requestId?: string;
  };
}) {
  // The item in the address does not exist (for this company): the shell's "not found" page, status 404.
  if (load.kind === "not-found") notFound();
  // No company to show is not an error: the calm empty state says what to ask for.
  if (load.kind === "no-company") return <EmptyState title={load.title}>{load.message}</EmptyState>;
  return (
    <div className="max-w-3xl">
      <ProblemState kind={load.kind} title={load.title} message={load.message} requestId={load.requestId} />
    </div>
  );
}
