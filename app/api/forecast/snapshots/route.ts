import { withUser } from "@/lib/bff/route";
import { getConfig } from "@/lib/server/config";
import { storeTestSnapshot } from "@/lib/bff/queries/forecast";
import { SnapshotInput } from "@/lib/forecast/inputs";

/**
 * POST /api/forecast/snapshots — the test seam of docs/forecast.md#variance (only with `DASHBOARD_TEST_SEAMS=1`,
 * else 404 before anything is read): stores a past week's forecast snapshot of one of the user's companies, as the first forecast of the
 * week of `as_of` would have kept it, so a browser test sees the variance table without waiting a week. 201
 * `{ iso_week, inserted }` (0 when that week already has a snapshot of the company: the first one is kept); 400
 * naming the field. Audited `forecast_snapshot.create`.
 */
export const POST = withUser(
  {
    enabled: () => getConfig().DASHBOARD_TEST_SEAMS,
    permission: "forecast.manage",
    company: "none",
    body: SnapshotInput,
    status: 201,
    audit: { action: "forecast_snapshot.create", objectType: "forecast_snapshot" },
  },
  async (ctx) => {
    const out = await storeTestSnapshot(ctx, ctx.body);
    ctx.audit.objectId = `${out.iso_week}/${ctx.body.company_id}`;
    ctx.audit.details = { before: null, after: { ...ctx.body, iso_week: out.iso_week } };
    return out;
  },
);
