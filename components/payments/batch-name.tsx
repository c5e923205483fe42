/**
 * How a batch is named wherever the dashboard names one: by its reference (the batch's own name, an extension of
 * the API); a batch without one is "Batch" with its short id (the first 8 hex digits) as secondary text.
 */

/** The first 8 hex digits of a batch id, the short form shown when a batch has no reference. */
export function shortBatchId(id: string): string {
  return id.slice(0, 8);
}

/** The batch's reference when it has a non-blank one (the spec API has none), else null. */
export function batchReferenceOf(batch: { reference?: unknown } | null | undefined): string | null {
  const ref = batch?.reference;
  return typeof ref === "string" && ref.trim() ? ref.trim() : null;
}

/** The batch's name as plain text (titles, dialogs, labels): its reference, else `Batch 3d0dae1a`. */
export function batchLabel(id: string, reference: string | null | undefined): string {
  return reference?.trim() ? reference.trim() : `Batch ${shortBatchId(id)}`;
}

/** The batch's name as shown in a list or a sentence: the reference, else "Batch" and the short id, muted. */
export function BatchName({ id, reference }: { id: string; reference: string | null | undefined }) {
  const ref = reference?.trim();
  if (ref) return <span data-testid="batch-name">{ref}</span>;
  return (
    <span data-testid="batch-name">
      Batch <span className="font-mono text-xs text-slate-600">{shortBatchId(id)}</span>
    </span>
  );
}
