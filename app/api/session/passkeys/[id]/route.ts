import { AUDIT_ACTION } from "@/lib/audit-actions";
import { PasskeyRenameBody } from "@/lib/auth/passkey-inputs";
import { BffError } from "@/lib/bff/errors";
import { IdParams, SETTINGS_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { removePasskey, renamePasskey } from "@/lib/db/passkeys";
import { dashboardDb } from "@/lib/server/db";

const notFound = () => new BffError("not_found", "You have no passkey with this id.");

/** PATCH /api/session/passkeys/{id} — `{ name }`; renames one of the user's own passkeys (404 for any other). */
export const PATCH = withUser(
  {
    permission: "profile.self",
    company: "none",
    params: IdParams,
    body: PasskeyRenameBody,
    maxBody: SETTINGS_MAX_BODY_BYTES,
    audit: { action: AUDIT_ACTION.passkeyRename, objectType: "passkey" },
  },
  async (ctx) => {
    const p = await renamePasskey(await dashboardDb(), ctx.user.id, ctx.params.id, ctx.body.name);
    if (!p) throw notFound();
    ctx.audit.details = { name: p.name };
    return p;
  },
);

/** DELETE /api/session/passkeys/{id} — removes one of the user's own passkeys (204; 404 for any other). */
export const DELETE = withUser(
  {
    permission: "profile.self",
    company: "none",
    params: IdParams,
    audit: { action: AUDIT_ACTION.passkeyRemove, objectType: "passkey" },
  },
  async (ctx) => {
    if (!(await removePasskey(await dashboardDb(), ctx.user.id, ctx.params.id))) throw notFound();
    return undefined;
  },
);
