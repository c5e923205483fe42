"use client";

import * as Tabs from "@radix-ui/react-tabs";
import Decimal from "decimal.js";
import dynamic from "next/dynamic";
import { useQueryStates } from "nuqs";
import {
  NO_KONCERN,
  type AccountPosition,
  type GroupPosition,
  type PositionGroup,
  type PositionSum,
} from "@/lib/group/group-position";
import { formatBusinessDate } from "@/lib/format-date";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { useLocale } from "@/components/format/use-locale";
import { EmptyState } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import type { ChartAxes } from "./group-chart";
import { GROUP_BREAKDOWNS, groupUrlParsers, type GroupBreakdown } from "./group-url-state";
import { headlineBasisLabel, rowBasisLabel } from "@/lib/views/headline-balance";
import { CsvExportButton } from "@/components/export/csv-export-button";
import { endpointUrl } from "@/lib/bff/endpoint";
import { groupEndpoints } from "@/lib/bff/areas/group/endpoints";
import { FailedCompaniesNote } from "@/components/group/failed-companies-note";

const GroupChart = dynamic(() => import("./group-chart").then((m) => m.GroupChart), {
  ssr: false,
  loading: () => (
    <div
      className="h-[300px] animate-pulse rounded-lg border border-slate-200 bg-slate-100"
      role="status"
      aria-busy="true"
      aria-label="Loading chart"
    />
  ),
});

const LABEL: Record<GroupBreakdown, string> = {
  company: "Company",
  koncern: "Corporate group",
  bank: "Bank",
  currency: "Currency",
  account: "Account",
};

const AXES: Record<GroupBreakdown, ChartAxes> = {
  company: { bar: (a) => a.companyName, stack: (a) => a.currency, barLabel: "company", stackLabel: "currency" },
  koncern: {
    bar: (a) => a.koncernName ?? "Not in a corporate group",
    stack: (a) => a.companyName,
    barLabel: "corporate group",
    stackLabel: "company",
  },
  bank: { bar: (a) => a.bankName, stack: (a) => a.currency, barLabel: "bank", stackLabel: "currency" },
  currency: { bar: (a) => a.currency, stack: (a) => a.companyName, barLabel: "currency", stackLabel: "company" },
  account: { bar: (a) => a.companyName, stack: (a) => a.currency, barLabel: "company", stackLabel: "currency" },
};

/** The hover text of a converted line: the rate used and its date. */
function conversionTitle(a: AccountPosition, locale: string): string {
  const c = a.conversion;
  if (!c) return "No balance reported";
  if (c.status === "unconverted") {
    const why = c.missing
      .map(
        (m) =>
          `${m.currency}: ${
            m.latestRateDate ? `latest rate ${formatBusinessDate(m.latestRateDate, locale)}` : "no " + "rate"
          }`,
      )
      .join("; ");
    return `Not converted: no rate within 7 days of ${formatBusinessDate(c.date, locale)} (${why})`;
  }
  if (c.legs.length === 0) return `Same currency, not converted (${formatBusinessDate(c.date, locale)})`;
  const when = formatBusinessDate(c.rateDate, locale);
  return `1 ${c.currency} = ${c.rate} ${c.to} · rate of ${when}${
    c.stale ? " (latest rate before the balance's " + "date)" : ""
  }`;
}

/** The hover text of a sum: the oldest rate date used. */
function sumTitle(s: PositionSum, locale: string): string {
  return s.oldestRateDate
    ? `Converted with reference rates of ${formatBusinessDate(s.oldestRateDate, locale)} or later`
    : "No conversion needed";
}

function Unconverted({ items }: { items: PositionSum["unconverted"] }) {
  if (items.length === 0) return null;
  return (
    <span className="text-amber-800" data-testid="unconverted">
      {items.map((u, i) => (
        <span key={u.currency}>
          {i > 0 && ", "}
          <Amount value={u.total} currency={u.currency} />
        </span>
      ))}
    </span>
  );
}

function share(part: string, whole: string): string {
  const w = new Decimal(whole);
  if (w.isZero()) return "–";
  return `${new Decimal(part).div(w).times(100).toFixed(1)} %`;
}

function basisLabel(p: GroupPosition, locale: string): string {
  const { closingDate, closingCount, interimCount } = p.basis;
  const closing = closingDate ? `Closing booked ${formatBusinessDate(closingDate, locale, "short")}` : null;
  if (interimCount === 0) return closing ?? "No balances reported";
  if (closingCount === 0) return "Interim booked today";
  return `${closing} · interim booked today for ${interimCount} of ${closingCount + interimCount} accounts`;
}

const CHANGE_TITLE =
  "Against each account's previous closing booked balance, both converted at their own day's rate " +
  "(includes exchange-rate moves)";

const FLAG_TEXT = {
  stale_rate: (n: number) => `${n} converted with an earlier day's rate`,
  stale_balance: (n: number) => `${n} with a balance older than 3 days`,
  unconverted: (n: number) => `${n} not converted (no rate within 7 days)`,
  no_balance: (n: number) => `${n} without a booked balance`,
  statement_gap: (n: number) => `${n} with a statement gap in the last 7 days`,
} as const;

function FlagBadges({ flags }: { flags: AccountPosition["flags"] }) {
  const text: Record<AccountPosition["flags"][number], string> = {
    stale_rate: "older rate",
    stale_balance: "stale balance",
    unconverted: "not converted",
    no_balance: "no balance",
    statement_gap: "statement gap",
  };
  return (
    <span className="flex flex-wrap gap-1">
      {flags.map((f) => (
        <span
          key={f}
          className={`rounded px-1.5 py-0.5 text-xs font-medium ${
            f === "stale_rate" ? "bg-slate-100 text-slate-700" : "bg-amber-50 text-amber-900"
          }`}
        >
          {text[f]}
        </span>
      ))}
    </span>
  );
}

/** The accounts a breakdown row sums (the row's key as `groupBy` keyed it). */
function accountsOfRow(accounts: readonly AccountPosition[], by: Exclude<GroupBreakdown, "account">, key: string) {
  return accounts.filter((a) =>
    by === "company"
      ? a.companyId === key
      : by === "bank"
        ? a.bankName === key
        : by === "currency"
          ? a.currency === key
          : (a.koncernId ?? NO_KONCERN) === key,
  );
}

function GroupTable({
  rows,
  by,
  currency,
  total,
  accounts,
}: {
  rows: PositionGroup[];
  by: Exclude<GroupBreakdown, "account">;
  currency: string;
  total: string;
  accounts: readonly AccountPosition[];
}) {
  const locale = useLocale();
  return (
    <Table label={`Cash by ${by}`}>
      <thead>
        <tr>
          <Th>{LABEL[by]}</Th>
          <Th align="right">Accounts</Th>
          {by === "currency" && <Th align="right">In currency</Th>}
          <Th align="right">In {currency}</Th>
          <Th align="right">Share</Th>
          <Th align="right">Day over day</Th>
          <Th>Not converted</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-testid={`group-row-${by}`} data-key={r.key}>
            <Td className="font-medium text-slate-900">{r.label}</Td>
            <Td align="right">{r.accounts}</Td>
            {by === "currency" && (
              <Td align="right">{r.original !== undefined && <Amount value={r.original} currency={r.key} />}</Td>
            )}
            <Td align="right" title={sumTitle(r, locale)} data-testid="group-row-amount">
              <Amount value={r.converted} currency={currency} />
              <div className="text-xs font-normal text-slate-500" data-testid="group-row-basis">
                {rowBasisLabel(accountsOfRow(accounts, by, r.key), (d) => formatBusinessDate(d, locale, "short"))}
              </div>
            </Td>
            <Td align="right">{share(r.converted, total)}</Td>
            <Td align="right" title={CHANGE_TITLE}>
              {r.change !== null ? <Amount value={r.change} currency={currency} signed /> : "–"}
            </Td>
            <Td>
              <Unconverted items={r.unconverted} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function AccountTable({ rows, currency }: { rows: AccountPosition[]; currency: string }) {
  const locale = useLocale();
  return (
    <Table label="Cash by account">
      <thead>
        <tr>
          <Th>Company</Th>
          <Th>Account</Th>
          <Th>Bank</Th>
          <Th align="right">Balance</Th>
          <Th align="right">In {currency}</Th>
          <Th>Flags</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.accountId} data-testid="group-row-account" data-key={a.accountId}>
            <Td>{a.companyName}</Td>
            <Td>
              <div className="font-medium text-slate-900">{a.accountName}</div>
              <div className="font-mono text-xs text-slate-500">{a.ibanMasked}</div>
            </Td>
            <Td>{a.bankName}</Td>
            <Td align="right">
              {a.balance !== null ? (
                <>
                  <Amount value={a.balance} currency={a.currency} />
                  <div className="text-xs text-slate-500">
                    {headlineBasisLabel({ balance_type: a.basis ?? "" })}
                    {a.asOfDate && (
                      <>
                        , <BusinessDate date={a.asOfDate} style="short" />
                      </>
                    )}
                  </div>
                </>
              ) : (
                <span className="text-slate-500">–</span>
              )}
            </Td>
            <Td align="right" title={conversionTitle(a, locale)} data-testid="group-row-amount">
              {a.conversion?.status === "converted" ? (
                <Amount value={a.conversion.value} currency={currency} />
              ) : (
                <span className="text-slate-500">–</span>
              )}
            </Td>
            <Td>
              <FlagBadges flags={a.flags} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/**
 * The group overview: total cash of every company the user may see in the
 * reporting currency (with what it is made of: closing booked of which day,
 * interim of today), a drill-down by company, bank, currency or account as
 * a table and a stacked bar chart, and the companies that could not be read.
 * Converted figures show their rate and rate date on hover.
 */
export function GroupOverview({ data }: { data: GroupPosition }) {
  const locale = useLocale();
  const [{ by }, setUrl] = useQueryStates(groupUrlParsers);
  const currency = data.reportingCurrency;
  // The koncern grouping is optional: offered only when the structure could be read.
  const breakdowns = GROUP_BREAKDOWNS.filter((b) => b !== "koncern" || data.byKoncern.length > 0);
  const flagged = Object.entries(data.total.flagged) as [keyof typeof FLAG_TEXT, number][];
  const accounts = [...data.accounts].sort(
    (a, b) => a.companyName.localeCompare(b.companyName) || a.accountName.localeCompare(b.accountName),
  );
  const companies = `${data.companyCount} ${data.companyCount === 1 ? "company" : "companies"}`;
  return (
    <div className="space-y-5">
      <FailedCompaniesNote companies={data.failedCompanies} testId="group-failed" />
      <section
        aria-labelledby="group-total-h"
        className="overflow-x-auto rounded-lg border border-slate-200 bg-white p-4"
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id="group-total-h" className="text-xs font-medium uppercase tracking-wide text-slate-500">
            Group cash · {companies} · {data.total.accounts} accounts
          </h2>
          <CsvExportButton
            href={endpointUrl(groupEndpoints.positionExport, {}, { currency })}
            fileName={`group_position_${data.today}_${currency}.csv`}
          />
        </div>
        <div
          className="mt-1 text-xl font-semibold sm:text-2xl"
          data-testid="group-total"
          title={sumTitle(data.total, locale)}
        >
          <Amount value={data.total.converted} currency={currency} />
        </div>
        {data.failedCompanies.length > 0 && (
          <div className="mt-0.5 text-xs font-medium text-amber-900" data-testid="group-total-excludes">
            Excludes {data.failedCompanies.map((f) => f.name).join(", ")} (could not be read)
          </div>
        )}
        <div className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-600">
          <span data-testid="group-basis">{basisLabel(data, locale)}</span>
          {data.total.change !== null && (
            <span data-testid="group-change" title={CHANGE_TITLE}>
              <Amount value={data.total.change} currency={currency} signed /> vs. previous closing
            </span>
          )}
        </div>
        {data.total.unconverted.length > 0 && (
          <div className="mt-2 text-[13px]">
            Not in the total (no rate within 7 days): <Unconverted items={data.total.unconverted} />
          </div>
        )}
        {flagged.length > 0 && (
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" data-testid="group-flags">
            {flagged.map(([f, n]) => (
              <li key={f}>{FLAG_TEXT[f](n)}</li>
            ))}
          </ul>
        )}
      </section>
      {data.accounts.length === 0 ? (
        <EmptyState title="No accounts yet">Accounts appear here once the banks report them.</EmptyState>
      ) : (
        <Tabs.Root
          value={breakdowns.includes(by) ? by : "company"}
          onValueChange={(v) => void setUrl({ by: v as GroupBreakdown })}
        >
          <Tabs.List
            aria-label="Break down by"
            className="mb-3 inline-flex flex-wrap rounded-md border border-slate-200 p-0.5"
          >
            {breakdowns.map((b) => (
              <Tabs.Trigger
                key={b}
                value={b}
                data-testid={`group-by-${b}`}
                className={
                  "rounded px-3 py-1 text-[13px] font-medium text-slate-600 hover:text-slate-900 " +
                  "data-[state=active]:bg-slate-900 data-[state=active]:text-white"
                }
              >
                {LABEL[b]}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {breakdowns.map((b) => (
            <Tabs.Content key={b} value={b} className="space-y-4">
              {/* The chart fits the screen, a phone's too (docs/architecture.md#phones): its axis labels shrink. */}
              <div className="min-w-0">
                <GroupChart accounts={data.accounts} currency={currency} axes={AXES[b]} />
              </div>
              {b === "account" ? (
                <AccountTable rows={accounts} currency={currency} />
              ) : (
                <GroupTable
                  rows={
                    b === "company"
                      ? data.byCompany
                      : b === "koncern"
                        ? data.byKoncern
                        : b === "bank"
                          ? data.byBank
                          : data.byCurrency
                  }
                  by={b}
                  accounts={data.accounts}
                  currency={currency}
                  total={data.total.converted}
                />
              )}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
    </div>
  );
}
