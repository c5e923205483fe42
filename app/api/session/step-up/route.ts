import { currentStepUpMode } from "@/lib/bff/step-up";
import { stepUpNeeded } from "@/lib/auth/step-up-rules";
import { withUser } from "@/lib/bff/route";
import { hasPasskey } from "@/lib/db/passkeys";
import { dashboardDb } from "@/lib/server/db";

/**
 * GET /api/session/step-up — `{ mode, enrolled, needed }`: the effective `DASHBOARD_STEP_UP` mode, whether the user has
 * a passkey, and whether their decisions need a passkey confirmation (the dialogs ask for one first when true; the
 * warning banner shows when the mode is optional and nothing is enrolled).
 */
export const GET = withUser({ permission: "profile.self", company: "none" }, async (ctx) => {
  const mode = currentStepUpMode();
  const enrolled = await hasPasskey(await dashboardDb(), ctx.user.id);
  return { mode, enrolled, needed: stepUpNeeded(mode, enrolled) };
});
