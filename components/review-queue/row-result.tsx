/** The outcome of one row of a bulk action: pending, done, or why it was refused. */
export type RowResult = { kind: "pending" } | { kind: "ok"; text: string } | { kind: "error"; text: string };

/** Shows a row's result inline, announced politely. */
export function RowResultText({ result }: { result: RowResult | undefined }) {
  if (!result) return null;
  const cls = result.kind === "ok" ? "text-emerald-700" : result.kind === "error" ? "text-red-700" : "text-slate-500";
  return (
    <span role="status" className={`block text-xs ${cls}`} data-testid="row-result" data-kind={result.kind}>
      {result.kind === "pending" ? "Working…" : result.text}
    </span>
  );
}
