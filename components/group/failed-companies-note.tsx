/**
 * The note above a group view that some companies are missing from it (their figures could not be read): their names,
 * and that the others are shown. Nothing when every company was read.
 */
export function FailedCompaniesNote({ companies, testId }: { companies: readonly { name: string }[]; testId: string }) {
  if (companies.length === 0) return null;
  return (
    <p
      role="status"
      data-testid={testId}
      className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900"
    >
      Not included, their figures could not be read: {companies.map((f) => f.name).join(", ")}. The other companies are
      shown; reload to try again.
    </p>
  );
}
