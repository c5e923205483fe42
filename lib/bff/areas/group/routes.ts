/**
 * The group area's BFF routes (docs/guides/fx-and-group-reporting.md#group-position-and-reporting-currency), declared
 * against ./endpoints.ts: every company the user may see, summed in the reporting currency, as JSON and as CSV
 * (docs/architecture.md#the-bff-declared-per-area).
 */
import "server-only";
import { z } from "zod";
import { BffError } from "@/lib/bff/errors";
import { exportGroupPosition, getGroupPosition } from "@/lib/bff/queries/group";
import { exportGroupCategories, getGroupCategories } from "@/lib/bff/queries/group-categories";
import { exportGroupReport, getGroupReport, resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { declareRoute, defineRoutes } from "@/lib/bff/route";
import { reportingCurrencyFor, supportedReportingCurrencies } from "@/lib/group/reporting-currency";
import { groupEndpoints as e } from "./endpoints";
import { GroupReportParams, GroupReportQuery, rangeOf } from "./query";

const PositionQuery = z.object({ currency: z.string().optional() });

export const groupRoutes = defineRoutes(e, {
  /**
   * GET /api/group/position[?currency=XXX] — the group cash position of every company the user may see, in the
   * user's reporting currency (or `currency`, which must be a supported one: 400 naming `currency` otherwise).
   * Companies whose reads failed are named in `failedCompanies`; the rest is returned.
   */
  position: declareRoute(
    e.position,
    { permission: "ledger.read", company: "none", query: PositionQuery },
    async (ctx) => {
      let currency = (await reportingCurrencyFor(ctx.user.id)).currency;
      if (ctx.query.currency !== undefined) {
        const supported = await supportedReportingCurrencies();
        if (!supported.includes(ctx.query.currency)) {
          const message = `must be one of ${supported.join(", ")}`;
          throw new BffError("validation_error", `currency ${message}`, { errors: { currency: [message] } });
        }
        currency = ctx.query.currency;
      }
      return getGroupPosition(ctx, currency);
    },
  ),

  /**
   * GET /api/group/position/export[?currency=XXX] — the group position as CSV, one line per account with its
   * original balance, the rate used and its date, and the converted balance (400 naming `currency` when unsupported).
   */
  positionExport: declareRoute(
    e.positionExport,
    { permission: "ledger.read", company: "none", query: PositionQuery },
    async (ctx) => exportGroupPosition(ctx, await resolveReportingCurrency(ctx.user.id, ctx.query.currency)),
  ),

  /**
   * GET /api/group/reports/{cashflow|positions|forecast}[?from_date&to_date&currency] — the report summed across
   * every company the user may see in the reporting currency (the user's, or `currency`), with the per-company
   * breakdown and each upstream row's original and converted figures. Companies whose reads failed are named in
   * `failedCompanies`. 400 naming `kind`, `from_date`, `to_date` or `currency` for bad input.
   */
  report: declareRoute(
    e.report,
    { permission: "reports.read", company: "none", params: GroupReportParams, query: GroupReportQuery },
    async (ctx) =>
      getGroupReport(
        ctx,
        ctx.params.kind,
        rangeOf(ctx.query),
        await resolveReportingCurrency(ctx.user.id, ctx.query.currency),
      ),
  ),

  /**
   * GET /api/group/reports/{kind}/export — the group report as CSV: one line per upstream row with its original
   * figures, the rate used and its date, and the converted figures (same query as the report route).
   */
  reportExport: declareRoute(
    e.reportExport,
    { permission: "reports.read", company: "none", params: GroupReportParams, query: GroupReportQuery },
    async (ctx) =>
      exportGroupReport(
        ctx,
        ctx.params.kind,
        rangeOf(ctx.query),
        await resolveReportingCurrency(ctx.user.id, ctx.query.currency),
      ),
  ),

  /**
   * GET /api/group/categories[?from_date&to_date&currency] — the cashflow of the range (default the last 30 days) per
   * category summed across every company the user may see in the reporting currency (the user's, or `currency`), with
   * the per-company breakdown and each (company, category, date, currency) line's original and converted figures.
   * Companies whose reads failed are named in `failedCompanies`. 400 naming `from_date`, `to_date` or `currency` for
   * bad input.
   */
  categories: declareRoute(
    e.categories,
    { permission: "reports.read", company: "none", query: GroupReportQuery },
    async (ctx) =>
      getGroupCategories(ctx, rangeOf(ctx.query), await resolveReportingCurrency(ctx.user.id, ctx.query.currency)),
  ),

  /**
   * GET /api/group/categories/export — the group cashflow by category as CSV: one line per (company, category, booking
   * date, currency) with its original figures, the rate used and its date, and the converted figures (same query as
   * /api/group/categories).
   */
  categoriesExport: declareRoute(
    e.categoriesExport,
    { permission: "reports.read", company: "none", query: GroupReportQuery },
    async (ctx) =>
      exportGroupCategories(ctx, rangeOf(ctx.query), await resolveReportingCurrency(ctx.user.id, ctx.query.currency)),
  ),
});
