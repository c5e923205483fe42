/**
 * The session area's BFF routes (docs/architecture.md#the-bff-declared-per-area), declared against ./endpoints.ts:
 * the company switcher, the reporting currency, the user's own passkeys and the passkey step-up.
 */
import "server-only";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { cookies } from "next/headers";
import { z } from "zod";
import { AUDIT_ACTION } from "@/lib/audit-actions";
import {
  PasskeyRenameBody,
  RegistrationVerifyBody,
  StepUpScopeBody,
  StepUpVerifyBody,
} from "@/lib/auth/passkey-inputs";
import { STEP_UP_MAX_AGE_MS, stepUpNeeded } from "@/lib/auth/step-up-rules";
import { COMPANY_COOKIE, mayUseCompany } from "@/lib/bff/company";
import { BffError } from "@/lib/bff/errors";
import { CompanySelection } from "@/lib/bff/inputs";
import { declareRoute, defineRoutes, IdParams, PASSKEY_MAX_BODY_BYTES, SETTINGS_MAX_BODY_BYTES } from "@/lib/bff/route";
import { currentStepUpMode, sessionIdOf, STEP_UP_HEADER } from "@/lib/bff/step-up";
import { registrationOptions, stepUpOptions, verifyRegistration, verifyStepUp } from "@/lib/bff/webauthn";
import { hasPasskey, listPasskeys, removePasskey, renamePasskey } from "@/lib/db/passkeys";
import { setReportingCurrency } from "@/lib/db/user-preferences";
import { reportingCurrencyFor, supportedReportingCurrencies } from "@/lib/group/reporting-currency";
import { dashboardDb } from "@/lib/server/db";
import { sessionEndpoints } from "./endpoints";

const CurrencyBody = z.object({
  currency: z.string({ message: "must be an ISO 4217 currency code such as EUR" }),
});

const notFound = () => new BffError("not_found", "You have no passkey with this id.");

export const sessionRoutes = defineRoutes(sessionEndpoints, {
  /**
   * POST /api/session/company — the company switcher. Sets the company cookie
   * after checking that the user may use the company (403 otherwise).
   */
  selectCompany: declareRoute(
    sessionEndpoints.selectCompany,
    {
      permission: "ledger.read",
      company: "none",
      ignoreCompanyCookie: true,
      body: CompanySelection,
      maxBody: SETTINGS_MAX_BODY_BYTES,
    },
    async (ctx) => {
      if (!mayUseCompany(ctx.user, ctx.companies, ctx.body.company_id)) {
        throw new BffError("permission_denied", "You do not have access to this company.", {
          company_id: ctx.body.company_id,
        });
      }
      (await cookies()).set(COMPANY_COOKIE, ctx.body.company_id, {
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: process.env.NODE_ENV === "production" && (process.env.NEXTAUTH_URL ?? "").startsWith("https://"),
        maxAge: 60 * 60 * 24 * 180,
      });
      return { company_id: ctx.body.company_id };
    },
  ),

  /** GET /api/session/passkeys — the signed-in user's passkeys `{ items: [{ id, name, createdAt, lastUsedAt }] }`. */
  passkeys: declareRoute(sessionEndpoints.passkeys, { permission: "profile.self", company: "none" }, async (ctx) => ({
    items: await listPasskeys(await dashboardDb(), ctx.user.id),
  })),

  /** PATCH /api/session/passkeys/{id} — `{ name }`; renames one of the user's own passkeys (404 for any other). */
  renamePasskey: declareRoute(
    sessionEndpoints.renamePasskey,
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
  ),

  /** DELETE /api/session/passkeys/{id} — removes one of the user's own passkeys (204; 404 for any other). */
  removePasskey: declareRoute(
    sessionEndpoints.removePasskey,
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
  ),

  /**
   * POST /api/session/passkeys/registration/options — `{ challenge_id, options }` for `startRegistration`; the
   * challenge is stored for this session, single use, 5 minutes. The user's passkeys are excluded (no double enrolment).
   */
  registrationOptions: declareRoute(
    sessionEndpoints.registrationOptions,
    { permission: "profile.self", company: "none", maxBody: SETTINGS_MAX_BODY_BYTES },
    async (ctx) => {
      const r = await registrationOptions({
        db: await dashboardDb(),
        user: ctx.user,
        sessionId: await sessionIdOf(ctx.request),
      });
      return { challenge_id: r.challengeId, options: r.options };
    },
  ),

  /**
   * POST /api/session/passkeys/registration/verify — `{ challenge_id, name, response }` (the `startRegistration`
   * result). Stores the passkey (201, audited as `passkey.add`); 400 when the challenge is unknown, used or expired or
   * the answer does not verify; 409 when that passkey is already enrolled.
   */
  registrationVerify: declareRoute(
    sessionEndpoints.registrationVerify,
    {
      permission: "profile.self",
      company: "none",
      body: RegistrationVerifyBody,
      maxBody: PASSKEY_MAX_BODY_BYTES,
      status: 201,
      audit: { action: AUDIT_ACTION.passkeyAdd, objectType: "passkey" },
    },
    async (ctx) => {
      const passkey = await verifyRegistration(
        { db: await dashboardDb(), user: ctx.user, sessionId: await sessionIdOf(ctx.request) },
        {
          challengeId: ctx.body.challenge_id,
          name: ctx.body.name,
          response: ctx.body.response as unknown as RegistrationResponseJSON,
        },
      );
      ctx.audit.details = { name: passkey.name };
      return passkey;
    },
  ),

  /**
   * GET /api/session/reporting-currency — `{ currency, origin, supported }`: the user's reporting currency and the
   * choices.
   */
  reportingCurrency: declareRoute(
    sessionEndpoints.reportingCurrency,
    { permission: "ledger.read", company: "none" },
    async (ctx) => {
      const [current, supported] = await Promise.all([
        reportingCurrencyFor(ctx.user.id),
        supportedReportingCurrencies(),
      ]);
      return { ...current, supported };
    },
  ),

  /**
   * PUT /api/session/reporting-currency `{ currency }` — stores the user's reporting currency. 400 naming
   * `currency` when it is not one of the supported codes (EUR or a currency with stored reference rates).
   */
  setReportingCurrency: declareRoute(
    sessionEndpoints.setReportingCurrency,
    { permission: "ledger.read", company: "none", body: CurrencyBody, maxBody: SETTINGS_MAX_BODY_BYTES },
    async (ctx) => {
      const supported = await supportedReportingCurrencies();
      const currency = ctx.body.currency.trim();
      if (!supported.includes(currency)) {
        const message = `must be one of ${supported.join(", ")}`;
        throw new BffError("validation_error", `currency ${message}`, { errors: { currency: [message] } });
      }
      await setReportingCurrency(await dashboardDb(), ctx.user.id, currency);
      return { currency, origin: "user" as const, supported };
    },
  ),

  /**
   * GET /api/session/step-up — `{ mode, enrolled, needed }`: the effective `DASHBOARD_STEP_UP` mode, whether the user
   * has a passkey, and whether their decisions need a passkey confirmation (the dialogs ask for one first when true;
   * the warning banner shows when the mode is optional and nothing is enrolled).
   */
  stepUp: declareRoute(sessionEndpoints.stepUp, { permission: "profile.self", company: "none" }, async (ctx) => {
    const mode = currentStepUpMode();
    const enrolled = await hasPasskey(await dashboardDb(), ctx.user.id);
    return { mode, enrolled, needed: stepUpNeeded(mode, enrolled) };
  }),

  /**
   * POST /api/session/step-up/options — `{ action, subjects }` (what the dialog shows: e.g. `approval.decide` and the
   * selected approval request ids). Returns `{ challenge_id, options }` for `startAuthentication`; the challenge and
   * the scope are stored for this session, single use, 5 minutes. 403 `step_up_required` when the user has no passkey.
   */
  stepUpOptions: declareRoute(
    sessionEndpoints.stepUpOptions,
    { permission: "profile.self", company: "none", body: StepUpScopeBody, maxBody: SETTINGS_MAX_BODY_BYTES },
    async (ctx) => {
      const r = await stepUpOptions(
        { db: await dashboardDb(), user: ctx.user, sessionId: await sessionIdOf(ctx.request) },
        { action: ctx.body.action, subjects: ctx.body.subjects },
      );
      return { challenge_id: r.challengeId, options: r.options };
    },
  ),

  /**
   * POST /api/session/step-up/verify — `{ challenge_id, response }` (the `startAuthentication` result). Verifies it and
   * returns the proof `{ proof, header, action, subjects, verified_at, expires_at }`: send `proof` in the `X-Step-Up`
   * header of the decisions it covers, within 5 minutes, from this session. Audited as `session.step_up`. 400 when the
   * challenge is unknown, already answered (a replay), expired or of another session, or the answer does not verify.
   */
  stepUpVerify: declareRoute(
    sessionEndpoints.stepUpVerify,
    {
      permission: "profile.self",
      company: "none",
      body: StepUpVerifyBody,
      maxBody: PASSKEY_MAX_BODY_BYTES,
      audit: { action: AUDIT_ACTION.stepUp, objectType: "step_up" },
    },
    async (ctx) => {
      const r = await verifyStepUp(
        { db: await dashboardDb(), user: ctx.user, sessionId: await sessionIdOf(ctx.request) },
        {
          challengeId: ctx.body.challenge_id,
          response: ctx.body.response as unknown as AuthenticationResponseJSON,
        },
      );
      ctx.audit.objectId = r.proof;
      ctx.audit.details = { step_up_action: r.action, subjects: r.subjects };
      return {
        proof: r.proof,
        header: STEP_UP_HEADER,
        action: r.action,
        subjects: r.subjects,
        verified_at: r.verifiedAt,
        expires_at: new Date(Date.parse(r.verifiedAt) + STEP_UP_MAX_AGE_MS).toISOString(),
      };
    },
  ),
});
