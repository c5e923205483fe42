import Link from "next/link";
import type { CategoryCashflowRow } from "@/lib/categories/summary";
import { Amount } from "@/components/format/amount";
import { Table } from "@/components/ui/table";

const th = "border-b border-slate-200 px-3 py-2 text-left text-xs font-medium text-slate-600";
const td = "border-b border-slate-100 px-3 py-2 text-[13px]";

/**
 * The range's cashflow per currency and category (inflow, outflow, net, number of transactions), with
 * `Uncategorised` as its own row; each category links to the transactions list filtered to it.
 */
export function CategoryCashflow({
  rows,
  truncated,
  from,
  to,
  exportHref,
}: {
  rows: CategoryCashflowRow[];
  truncated: boolean;
  from: string;
  to: string;
  exportHref: string;
}) {
  return (
    <section aria-labelledby="by-category" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="by-category" className="text-sm font-semibold text-slate-800">
          By category
        </h2>
        <a href={exportHref} download className="text-[13px] font-medium text-blue-700 underline">
          Export categories CSV
        </a>
      </div>
      {truncated ? (
        <p className="mb-2 text-xs text-amber-800">
          The range holds more transactions than one report reads; narrow the range for exact figures.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="text-[13px] text-slate-600">No transactions in this range.</p>
      ) : (
        <div data-testid="category-cashflow">
          <Table label="Cashflow by category">
            <thead>
              <tr>
                <th className={th} scope="col">
                  Category
                </th>
                <th className={th} scope="col">
                  Currency
                </th>
                <th className={`${th} text-right`} scope="col">
                  Transactions
                </th>
                <th className={`${th} text-right`} scope="col">
                  Inflow
                </th>
                <th className={`${th} text-right`} scope="col">
                  Outflow
                </th>
                <th className={`${th} text-right`} scope="col">
                  Net
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.currency}-${r.category}`} data-category={r.category}>
                  <td className={`${td} text-left font-medium`}>
                    <Link
                      className="text-blue-700 underline"
                      href={`/transactions?from=${from}&to=${to}&currency=${r.currency}&category=${encodeURIComponent(r.category)}`}
                    >
                      {r.category}
                    </Link>
                  </td>
                  <td className={td}>{r.currency}</td>
                  <td className={`${td} text-right tabular-nums`}>{r.count.toLocaleString("en-GB")}</td>
                  <td className={`${td} text-right`}>
                    <Amount value={r.inflow} currency={r.currency} />
                  </td>
                  <td className={`${td} text-right`}>
                    <Amount value={r.outflow === "0.00" ? r.outflow : `-${r.outflow}`} currency={r.currency} />
                  </td>
                  <td className={`${td} text-right font-semibold`}>
                    <Amount value={r.net} currency={r.currency} signed />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </section>
  );
}
