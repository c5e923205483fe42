import { NextResponse, type NextRequest } from "next/server";
import { AUDIT_ACTION } from "@/lib/audit-actions";
import { requestIdFrom } from "@/lib/bff/context";
import { BffError, toBffError, validationError } from "@/lib/bff/errors";
import { checkDeclaredLength, isJsonContentType, readLimitedBody, refuseNul } from "@/lib/bff/input-guards";
import { originAllowed } from "@/lib/bff/origin";
import { userAdminCall } from "@/lib/bff/user-admin";
import { appendAudit } from "@/lib/db/audit";
import { AcceptInvitation, acceptInvitation } from "@/lib/db/user-admin";
import { getConfig } from "@/lib/server/config";
import { dashboardDb } from "@/lib/server/db";
import { logger } from "@/lib/server/log";

const MAX_BODY = 4 * 1024;

/**
 * POST /api/invitations/accept — sets a password through an invitation or reset link, without a session: body
 * `{ token, email, password }` (the e-mail must be the one the link was sent to); `{ email }` then the person signs
 * in. 400 naming `token` (unknown, used, revoked, expired, user disabled), `email` (another address) or `password`
 * (under 10 characters); 403 for a cross-origin request; 413 / 415 as every write. Audited as
 * `user.invitation_accept` (docs/users-and-notifications.md#invitations).
 */
export async function POST(req: NextRequest): Promise<NextResponse> {
  const requestId = requestIdFrom(req.headers);
  const headers = { "Cache-Control": "no-store", "X-Request-ID": requestId };
  try {
    checkDeclaredLength(req.headers, MAX_BODY);
    const config = getConfig();
    if (!originAllowed(req.headers.get("origin"), config.NEXTAUTH_URL, config.DASHBOARD_ALLOWED_ORIGINS))
      throw new BffError("permission_denied", "Cross-origin request refused.");
    const text = new TextDecoder().decode(await readLimitedBody(req, MAX_BODY));
    if (!isJsonContentType(req.headers.get("content-type")))
      throw new BffError("unsupported_media_type", "Content-Type must be application/json for this request", {
        errors: { "Content-Type": ["must be application/json"] },
      });
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new BffError("validation_error", "body is not valid JSON", { errors: { body: ["is not valid JSON"] } });
    }
    refuseNul(raw, "body");
    const parsed = AcceptInvitation.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error, "body");
    const db = await dashboardDb();
    const user = await userAdminCall(() => acceptInvitation(db, parsed.data));
    await appendAudit(db, {
      userId: user.id,
      userEmail: user.email,
      action: AUDIT_ACTION.userInvitationAccept,
      objectType: "user",
      objectId: user.id,
      companyId: null,
      outcome: "success",
      requestId,
      details: { after: { has_password: true } },
    });
    return NextResponse.json({ email: user.email }, { status: 200, headers });
  } catch (err) {
    const mapped = toBffError(err, requestId);
    if (mapped.log) logger.error({ requestId, err }, "invitation accept failed");
    return NextResponse.json(mapped.body, { status: mapped.status, headers: { ...headers, ...mapped.headers } });
  }
}
