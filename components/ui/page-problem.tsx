import { EmptyState, ProblemState } from "./states";

/** Renders a failed page load (no access, company problem, API down) inside the shell. */
export function PageProblem({
  load,
}: {
  load: { kind: "forbidden" | "error" | "no-company"; title: string; message: string; requestId?: string };
}) {
  // No company to show is not an error: the calm empty state says what to ask for.
  if (load.kind === "no-company") return <EmptyState title={load.title}>{load.message}</EmptyState>;
  return (
    <div className="max-w-3xl">
      <ProblemState kind={load.kind} title={load.title} message={load.message} requestId={load.requestId} />
    </div>
  );
}
