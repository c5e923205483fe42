import type { ScoreBreakdown as Breakdown } from "@treasury/contract";

const PARTS: [keyof Breakdown, string][] = [
  ["amount", "Amount"],
  ["date", "Date"],
  ["reference", "Reference"],
  ["name", "Name"],
];

/** The score and why: one small bar per part of the score (0–100 each), with the figure in text. */
export function ScoreBreakdown({ score, breakdown }: { score: number; breakdown: Breakdown }) {
  const tone = score >= 90 ? "text-emerald-700" : score >= 70 ? "text-amber-700" : "text-red-700";
  return (
    <div className="min-w-36">
      <div className={`text-sm font-semibold tabular ${tone}`} data-testid="match-score">
        {score}
        <span className="text-xs font-normal text-slate-500"> / 100</span>
      </div>
      <dl className="mt-0.5 grid grid-cols-2 gap-x-3 gap-y-0.5">
        {PARTS.map(([k, label]) => (
          <div key={k} className="grid grid-cols-[1fr_auto] gap-x-2 text-xs text-slate-600">
            <dt>{label}</dt>
            <dd className="tabular">{breakdown[k]}</dd>
            <dd aria-hidden className="col-span-2 h-0.5 rounded-full bg-slate-200">
              <div className="h-0.5 rounded-full bg-slate-500" style={{ width: `${breakdown[k]}%` }} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
