import { ProblemState } from "./states";

/** Renders a failed page load (no access, company problem, API down) inside the shell. */
export function PageProblem({
  load,
}: {
  load: { kind: "forbidden" | "error"; title: string; message: string; requestId?: string };
}) {
  return (
    <div className="max-w-3xl">
      <ProblemState kind={load.kind} title={load.title} message={load.message} requestId={load.requestId} />
    </div>
  );
}
