/**
 * The note under a group report that some amounts are left out of its figures (no FX rate within 7 days): per
 * currency how many `unit`s ("line" / "row", plural with an s), and that the CSV lists them in their own currency.
 * Nothing when every amount was converted.
 */
export function UnconvertedNote({
  unconverted,
  unit,
  className,
  testId,
}: {
  unconverted: readonly { lines: number; currency: string }[];
  unit: "line" | "row";
  className: string;
  testId: string;
}) {
  if (unconverted.length === 0) return null;
  return (
    <p className={className} data-testid={testId}>
      Not in the figures (no rate within 7 days):{" "}
      {unconverted.map((u) => `${u.lines} ${u.currency} ${u.lines === 1 ? unit : `${unit}s`}`).join(", ")}; the CSV
      lists them in their own currency.
    </p>
  );
}
