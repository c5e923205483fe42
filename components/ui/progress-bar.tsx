/**
 * A slim progress bar (ARIA `progressbar`) for long reads the user waits
 * on: CSV downloads, the transactions search reading every page. `max` null
 * means the total is unknown; the bar then pulses instead of filling.
 */
export function ProgressBar({
  label,
  value,
  max,
  valueText,
  testId,
}: {
  label: string;
  value: number;
  max: number | null;
  valueText?: string;
  testId?: string;
}) {
  const pct = max ? Math.min(100, Math.round((value / Math.max(max, 1)) * 100)) : null;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max ?? undefined}
      aria-valuenow={value}
      aria-valuetext={valueText}
      className="h-2 w-32 shrink-0 overflow-hidden rounded-full bg-slate-200"
      data-testid={testId}
    >
      <div
        className={`h-full bg-sky-600 transition-[width] ${pct === null ? "w-1/3 animate-pulse" : ""}`}
        style={pct === null ? undefined : { width: `${pct}%` }}
      />
    </div>
  );
}
