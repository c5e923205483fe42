/**
 * The dashboard's configuration (environment variables), parsed with zod
 * at start. A bad or missing variable stops the start with a message that
 * names the variable. Pure (no `server-only`) so that the launchers and the
 * users CLI can parse the same configuration before Next starts.
 */
import { z } from "zod";
import { SCOPES, Scope } from "@treasury/contract/auth";
import { wholeNumberText } from "@treasury/contract/pagination";

const optionalString = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s.trim() === "" ? undefined : s.trim()));

const optionalUrl = optionalString.pipe(z.url({ message: "must be an absolute URL" }).optional());

const intWithDefault = (def: number, min: number, max: number) =>
  optionalString.pipe(
    wholeNumberText(min, max)
      .optional()
      .transform((n) => n ?? def),
  );

/** True for an https URL, or an http URL on the loopback interface (tests, a local IdP). */
function secureOrLoopback(url: string): boolean {
  const u = new URL(url);
  return (
    u.protocol === "https:" || (u.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(u.hostname))
  );
}

/** Default of DASHBOARD_RISK_UNVERIFIED_HIGH: about 50,000 EUR in each currency of the demo data. */
export const UNVERIFIED_HIGH_DEFAULT: Readonly<Record<string, string>> = {
  EUR: "50000",
  USD: "50000",
  CHF: "50000",
  GBP: "40000",
  NOK: "500000",
  SEK: "500000",
  DKK: "375000",
  JPY: "7500000",
};

/**
 * DASHBOARD_RISK_UNVERIFIED_HIGH: `CURRENCY=AMOUNT` pairs → amounts per currency; unset → `UNVERIFIED_HIGH_DEFAULT`;
 * `none` → `{}`. Its own schema so that the risk signals read it without the rest of the configuration
 * (docs/configuration.md); a bad value is refused at start by `parseDashboardEnv`.
 */
export const RiskUnverifiedHigh = optionalString.transform((s, ctx) => {
  if (s === undefined) return { ...UNVERIFIED_HIGH_DEFAULT };
  if (s.toLowerCase() === "none") return {};
  const out: Record<string, string> = {};
  for (const entry of s.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([A-Z]{3})=(\d{1,15}(?:\.\d{1,6})?)$/.exec(entry);
    if (!m?.[1] || !m[2]) {
      ctx.addIssue({
        code: "custom",
        message: `has "${entry}"; write CURRENCY=AMOUNT pairs such as EUR=50000,NOK=500000 (or none)`,
      });
      return z.NEVER;
    }
    out[m[1]] = m[2];
  }
  return out;
});

export const DashboardEnv = z
  .object({
    TREASURY_API_BASE_URL: optionalUrl.pipe(
      z.string({ message: "is required (the Treasury API base address ending in /public)" }),
    ),
    TREASURY_API_FORM: optionalString
      .pipe(z.enum(["A", "B"], { message: "must be A or B" }).optional())
      .transform((f) => f ?? "B"),
    TREASURY_CLIENT_ID: optionalString.pipe(z.string({ message: "is required (the OAuth client id)" })),
    TREASURY_CLIENT_SECRET: optionalString.pipe(z.string({ message: "is required (the OAuth client secret)" })),
    TREASURY_TENANT_ID: optionalString.pipe(z.uuid({ message: "must be a UUID" }).optional()),
    TREASURY_SCOPES: optionalString.transform((s, ctx) => {
      const list = s ? [...new Set(s.split(/[\s,]+/).filter(Boolean))] : [...SCOPES];
      for (const scope of list) {
        if (!Scope.safeParse(scope).success) {
          ctx.addIssue({ code: "custom", message: `has an unknown scope "${scope}"; known: ${SCOPES.join(" ")}` });
          return z.NEVER;
        }
      }
      return list as Scope[];
    }),
    TREASURY_TIMEOUT_MS: intWithDefault(15_000, 100, 300_000),
    /** Absolute session lifetime from sign-in, in hours. */
    DASHBOARD_SESSION_HOURS: intWithDefault(12, 1, 168),
    /** A session unused for this many minutes ends (idle timeout; activity is refreshed at most once a minute). */
    DASHBOARD_IDLE_MINUTES: intWithDefault(30, 1, 1440),
    NEXTAUTH_URL: optionalUrl,
    /**
     * E-mail of notifications and invitations (docs/users-and-notifications.md#e-mail): `smtp://user:pass@host:587`
     * or `smtps://…`; unset, no e-mail is sent (the in-app centre still works).
     */
    SMTP_URL: optionalString.pipe(
      z
        .url({ message: "must be an smtp:// or smtps:// URL" })
        .refine((u) => /^smtps?:\/\//i.test(u), { message: "must be an smtp:// or smtps:// URL" })
        .optional(),
    ),
    /** The sender of those e-mails (`Treasury <treasury@example.com>`); default `treasury-dashboard@localhost`. */
    SMTP_FROM: optionalString.refine((s) => s === undefined || !/[\r\n]/.test(s), {
      message: "must not contain line breaks",
    }),
    /**
     * The signing secret(s) of the Treasury API's webhooks to `/api/webhooks/treasury` (`whsec_…`; several separated
     * by commas or spaces during a rotation). Unset, the receiver answers 503 (docs/users-and-notifications.md).
     */
    TREASURY_WEBHOOK_SECRET: optionalString.transform((s) =>
      s === undefined ? undefined : s.split(/[\s,]+/).filter((x) => x.length > 0),
    ),
    /**
     * Origins besides NEXTAUTH_URL's that may send writes (comma- or space-separated, e.g. a second public host
     * name); each an absolute http(s) URL, kept as its origin.
     */
    DASHBOARD_ALLOWED_ORIGINS: optionalString.transform((s, ctx) => {
      const origins: string[] = [];
      for (const entry of s ? s.split(/[\s,]+/).filter(Boolean) : []) {
        const url = URL.canParse(entry) ? new URL(entry) : null;
        if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
          ctx.addIssue({ code: "custom", message: `has "${entry}", which is not an absolute http(s) URL` });
          return z.NEVER;
        }
        origins.push(url.origin);
      }
      return origins;
    }),
    NEXTAUTH_SECRET: optionalString.pipe(
      z
        .string({ message: "is required (32 or more random characters)" })
        .min(32, { message: "must be at least 32 characters" }),
    ),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { message: "must be a postgres:// or postgresql:// URL" })
        .optional(),
    ),
    /**
     * Redis shared by every dashboard instance (upstream cache, single-flight locks, OAuth token, rate budget);
     * unset: each instance keeps them in its own memory.
     */
    REDIS_URL: optionalString.pipe(
      z
        .string()
        .regex(/^rediss?:\/\/[^\s]+$/, { message: "must be a redis:// or rediss:// URL" })
        .optional(),
    ),
    /** 0 turns the upstream cache of Treasury API reads off (every read goes upstream); default 1. */
    DASHBOARD_UPSTREAM_CACHE: optionalString
      .pipe(z.enum(["0", "1"], { message: "must be 0 or 1" }).optional())
      .transform((v) => v !== "0"),
    DASHBOARD_DATA_DIR: optionalString.transform((s) => s ?? ".data/dashboard"),
    DASHBOARD_DEMO: optionalString
      .pipe(z.enum(["0", "1"], { message: "must be 0 or 1" }).optional())
      .transform((v) => v === "1"),
    /**
     * 1 turns on the test seams: routes a browser test uses to put in place what only time would make (a past week's
     * forecast snapshot, `POST /api/forecast/snapshots`). Never set in production; default 0.
     */
    DASHBOARD_TEST_SEAMS: optionalString
      .pipe(z.enum(["0", "1"], { message: "must be 0 or 1" }).optional())
      .transform((v) => v === "1"),
    /**
     * Passkey step-up before approving, rejecting, verifying a counterparty or changing an approval policy
     * (lib/auth/step-up-rules.ts): `required`, `optional` (only for users who enrolled a passkey) or `off`. Unset:
     * `optional` in demo mode, else `required` (resolved by `stepUpMode`).
     */
    DASHBOARD_STEP_UP: optionalString.pipe(
      z.enum(["required", "optional", "off"], { message: "must be required, optional or off" }).optional(),
    ),
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    // FX reference rates fetched on a schedule (lib/fx/fetch.ts); off when unset.
    FX_RATES_URL: optionalUrl.pipe(
      z
        .string()
        .regex(/^https?:\/\//, { message: "must be an http:// or https:// URL" })
        .optional(),
    ),
    FX_RATES_INTERVAL_MINUTES: intWithDefault(60, 5, 10_080),
    /**
     * Seconds between sweeps of the reconciliation auto-confirm rules on this server (lib/bff/auto-confirm-schedule.ts);
     * 0 or unset: no sweep (the rules still run when the review is read). 10 to 86 400.
     */
    DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS: optionalString.pipe(
      z
        .string()
        .regex(/^\d+$/, { message: "must be a whole number of seconds (0 = off, else 10 to 86400)" })
        .transform(Number)
        .refine((n) => n === 0 || (n >= 10 && n <= 86_400), { message: "must be 0 (off) or 10 to 86400" })
        .optional(),
    ),
    /**
     * Bearer token for `GET /metrics` (16 or more characters). Unset: only loopback clients may read it; set: every
     * scraper must send `Authorization: Bearer <METRICS_TOKEN>` (lib/server/metrics-access.ts says why).
     */
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, { message: "must be at least 16 characters" }).optional()),
    /**
     * From which amount a payment to an unverified payee is a high risk signal (an acknowledgement to approve) rather
     * than medium, per currency: `EUR=50000,NOK=500000` (lib/payments/risk-signals.ts). Unset: `UNVERIFIED_HIGH_DEFAULT`;
     * `none` turns it off (every unverified payee medium).
     */
    DASHBOARD_RISK_UNVERIFIED_HIGH: RiskUnverifiedHigh,
    // The reporting currency of users who have not chosen one (lib/db/user-preferences.ts).
    DASHBOARD_REPORTING_CURRENCY: optionalString
      .pipe(
        z
          .string()
          .regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 currency code such as EUR" })
          .optional(),
      )
      .transform((c) => c ?? "EUR"),
  })
  .superRefine((env, ctx) => {
    if (env.TREASURY_API_FORM === "A" && !env.TREASURY_TENANT_ID) {
      ctx.addIssue({
        code: "custom",
        path: ["TREASURY_TENANT_ID"],
        message: "is required when TREASURY_API_FORM is A",
      });
    }
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID)
      ctx.addIssue({ code: "custom", path: ["OIDC_CLIENT_ID"], message: "is required when OIDC_ISSUER is set" });
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_SECRET)
      ctx.addIssue({ code: "custom", path: ["OIDC_CLIENT_SECRET"], message: "is required when OIDC_ISSUER is set" });
    // Sign-in rests on what the issuer says: its discovery document and keys must not travel in clear text.
    if (env.OIDC_ISSUER && !secureOrLoopback(env.OIDC_ISSUER))
      ctx.addIssue({
        code: "custom",
        path: ["OIDC_ISSUER"],
        message: "must be an https:// URL (http:// only on 127.0.0.1, ::1 or localhost)",
      });
    // The redirect URI registered at the IdP must not depend on a request's Host header.
    if (env.OIDC_ISSUER && !env.NEXTAUTH_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["NEXTAUTH_URL"],
        message:
          "is required when OIDC_ISSUER is set " +
          "(the identity provider redirects to <NEXTAUTH_URL>/api/auth/callback/oidc)",
      });
    }
  });

export type DashboardEnv = z.output<typeof DashboardEnv>;

/** Thrown for a bad configuration; `message` names every bad variable. */
export class ConfigError extends Error {
  readonly variables: string[];
  constructor(problems: { variable: string; message: string }[]) {
    super("Invalid dashboard configuration:\n" + problems.map((p) => `  ${p.variable} ${p.message}`).join("\n"));
    this.name = "ConfigError";
    this.variables = problems.map((p) => p.variable);
  }
}

/**
 * Parses the environment.
 * @throws ConfigError naming each bad or missing variable.
 */
export function parseDashboardEnv(env: Record<string, string | undefined> = process.env): DashboardEnv {
  const r = DashboardEnv.safeParse(env);
  if (r.success) return r.data;
  throw new ConfigError(
    r.error.issues.map((i) => ({ variable: String(i.path[0] ?? "environment"), message: i.message })),
  );
}
