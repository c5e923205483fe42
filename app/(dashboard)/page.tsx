import type { Metadata } from "next";
import { Suspense } from "react";
import { loadData, loadPage, type CompanyContext } from "@/lib/bff/page";
import type { BffContext } from "@/lib/bff/context";
import { getOverview } from "@/lib/bff/queries/views";
import { getGroupPosition } from "@/lib/bff/queries/group";
import { missingStatements } from "@/lib/bff/queries/missing-statements";
import { OverdueStatementsPanel } from "@/components/statements/overdue-statement";
import { reportingCurrencyFor } from "@/lib/group/reporting-currency";
import { NewBatchLink, OverviewPanel } from "@/components/overview/overview-view";
import { can } from "@/lib/auth/roles";
import { GroupOverview } from "@/components/group/group-overview";
import { PageHeader, SkeletonRows } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { RetryProblem } from "@/components/ui/retry-problem";

export const metadata: Metadata = { title: "Overview" };

/** The group position, streamed in after the header (it reads every company's accounts). */
async function GroupSection({ ctx }: { ctx: BffContext }) {
  const data = await loadData(ctx, async () =>
    getGroupPosition(ctx, (await reportingCurrencyFor(ctx.user.id)).currency),
  );
  return data.ok ? (
    <GroupOverview data={data.data} />
  ) : (
    <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />
  );
}

/** The selected company's overview (positions per currency, work waiting, events), streamed in. */
async function CompanySection({ ctx }: { ctx: CompanyContext }) {
  const data = await loadData(ctx, () => getOverview(ctx));
  return data.ok ? (
    <OverviewPanel data={data.data} />
  ) : (
    <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />
  );
}

/**
 * The selected company's accounts with an overdue statement (docs/bank-files.md "Missing statements"), streamed in;
 * nothing when none is overdue, when the API does not advertise it, or when the read fails (the accounts list
 * names them too).
 */
async function OverdueSection({ ctx }: { ctx: CompanyContext }) {
  const data = await loadData(ctx, () => missingStatements(ctx));
  return data.ok && data.data ? <OverdueStatementsPanel accounts={data.data} /> : null;
}

/**
 * Overview: how much cash, where it is heading, and what is waiting. A user
 * with more than one company first sees the group position of all of them in
 * the reporting currency, then the selected company's overview; a user with
 * one company sees that company's overview.
 */
export default async function OverviewPage() {
  const load = await loadPage("overview", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const actions = can(ctx.user.roles, "payments.write") ? <NewBatchLink /> : undefined;
  if (ctx.companies.length > 1) {
    return (
      <div className="max-w-6xl space-y-8">
        <div>
          <PageHeader
            title="Overview"
            description={`Group cash of the ${ctx.companies.length} companies you can see, in one reporting currency`}
            actions={actions}
          />
          <Suspense
            fallback={
              <div role="status" aria-live="polite">
                <p className="mb-3 text-[13px] text-slate-600">
                  Reading the accounts of {ctx.companies.length} companies…
                </p>
                <SkeletonRows rows={6} />
              </div>
            }
          >
            <GroupSection ctx={ctx} />
          </Suspense>
        </div>
        <section aria-labelledby="company-h" className="border-t border-slate-200 pt-5">
          <h2 id="company-h" className="mb-3 text-base font-semibold text-slate-900">
            {ctx.company.name}{" "}
            <span className="text-[13px] font-normal text-slate-600">
              · org. no. {ctx.company.orgnr} · {ctx.company.country} · selected company
            </span>
          </h2>
          <Suspense fallback={null}>
            <OverdueSection ctx={ctx} />
          </Suspense>
          <Suspense fallback={<SkeletonRows rows={4} />}>
            <CompanySection ctx={ctx} />
          </Suspense>
        </section>
      </div>
    );
  }
  const data = await loadData(ctx, () => getOverview(ctx));
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Overview"
        description={`${ctx.company.name} · org. no. ${ctx.company.orgnr} · ${ctx.company.country}`}
        actions={actions}
      />
      <Suspense fallback={null}>
        <OverdueSection ctx={ctx} />
      </Suspense>
      {data.ok ? (
        <OverviewPanel data={data.data} />
      ) : (
        <RetryProblem title={data.title} message={data.message} requestId={data.requestId} kind={data.kind} />
      )}
    </div>
  );
}
