/**
 * Runtime settings of the treasury-api (docs/architecture.md#rate-limits, #idempotency:
 * rate limits, idempotency
 * retention, four-eyes threshold, bank simulator speed). Defaults are the
 * documented ones; the CLI and tests override them.
 */
import type { Resolver } from "./webhooks/target-policy";
import { ephemeralSecretKey } from "./lib/secret-box";
import { DEFAULT_FOUR_EYES_THRESHOLDS, parseFourEyesThresholds, type FourEyesThresholds } from "./domain/four-eyes";

export type BankSpeed = "instant" | "fast" | "realistic" | "manual";

export interface AppConfig {
  /** Fixed-window rate limit per OAuth client (default 600 per 60 s). */
  rateLimit: { limit: number; windowSeconds: number };
  /**
   * Fixed-window limit per remote address for requests that are not
   * authenticated (no or a bad bearer token, failed token requests). Default:
   * five times `rateLimit` over its window, so it is always the larger one.
   * It never counts or blocks a token request that authenticates.
   */
  addressRateLimit?: { limit: number; windowSeconds: number };
  /**
   * Allow webhook targets on `http` and on loopback / private / link-local /
   * reserved addresses (docs/architecture.md#webhooks). Off by default; on in demo mode
   * and tests (`--allow-private-webhooks`, `TREASURY_API_ALLOW_PRIVATE_WEBHOOKS=1`).
   */
  allowPrivateWebhooks: boolean;
  /** Test hook: resolves webhook host names instead of the system resolver (dns.lookup). */
  webhookResolver?: Resolver;
  /**
   * Test hook: the clock of the request-time date rules (an execution date not before the company's today);
   * default the real time. Database timestamps (`now()`) do not follow it.
   */
  now?: () => Date;
  /**
   * Build absolute URLs (pagination `next` / `previous`) from
   * `X-Forwarded-Proto` / `X-Forwarded-Host`, as set by a reverse proxy in
   * front of the API. Off by default: anyone can send those headers
   * (`--trust-proxy`, `TRUST_PROXY=1`).
   */
  trustProxy: boolean;
  /** Idempotency key retention in seconds (default 24 h). */
  idempotencyRetentionSeconds: number;
  /** How long an in-progress idempotency key blocks a retry before it may take over (s). */
  idempotencyLockSeconds: number;
  /**
   * Batch total at or above which two approvals are needed, per batch currency (decimal strings), and the fallback
   * for other currencies (domain/four-eyes.ts; `--four-eyes-threshold`, `TREASURY_API_FOUR_EYES_THRESHOLD`).
   */
  fourEyesThresholds: FourEyesThresholds;
  /** Access token lifetime in seconds (spec: 3600). */
  tokenLifetimeSeconds: number;
  /** Bank simulator pace. */
  bankSpeed: BankSpeed;
  /**
   * The simulated bank behind a folder channel (docs/bank-channels.md "The simulated bank behind a channel"): the
   * folder holding its `bank.json` and state. When set, the folder bank runs every tick of `bankSpeed` (not at
   * `manual`); the direct simulator still runs for batches no connection serves. Unset: no folder bank.
   */
  folderBankDir?: string;
  /** How often the bank-channel worker runs the due pulls and pushes (ms; default 5 s, the demo's bank: its tick). */
  bankChannelPollMs: number;
  /**
   * Factor on the webhook retry delays (1 min … 24 h; docs/architecture.md#webhooks):
   * 1 in production, tiny in tests so that seven retries take milliseconds.
   */
  webhookRetryScale: number;
  /** A delivery that has no 2xx answer within this many milliseconds failed (10 s). */
  webhookTimeoutMs: number;
  /** How often the webhook worker looks for events and due deliveries (ms). */
  webhookPollMs: number;
  /**
   * How often the statement watch looks for newly overdue statements (ms; default one minute, docs/bank-files.md
   * "Missing statements"). Tests set it short so that `statement.missing` comes from the running API.
   */
  statementWatchMs: number;
  /** Largest accepted request body in bytes (1 MiB). */
  maxBodyBytes: number;
  /**
   * Largest body of POST /payments/batches (8 MiB): 10,000 instructions take
   * about 1.6 MB of compact JSON with typical fields and up to ~7.5 MB at the
   * field maxima with multi-byte names, so 1 MiB cannot hold them.
   */
  maxBatchBodyBytes: number;
  /**
   * AES-256-GCM key (32 bytes) for secrets at rest (lib/secret-box.ts): from
   * TREASURY_API_SECRET_KEY or the data folder's key file; default a random key per process.
   */
  secretKey: Buffer;
  /**
   * Bearer token that lets a non-loopback scraper read `GET /metrics` (`METRICS_TOKEN`); unset: loopback only.
   */
  metricsToken?: string;
}

export const DEFAULT_CONFIG: Omit<AppConfig, "secretKey"> = {
  rateLimit: { limit: 600, windowSeconds: 60 },
  idempotencyRetentionSeconds: 24 * 3600,
  idempotencyLockSeconds: 60,
  fourEyesThresholds: DEFAULT_FOUR_EYES_THRESHOLDS,
  tokenLifetimeSeconds: 3600,
  bankSpeed: "fast",
  bankChannelPollMs: 5_000,
  webhookRetryScale: 1,
  webhookTimeoutMs: 10_000,
  webhookPollMs: 500,
  statementWatchMs: 60_000,
  maxBodyBytes: 1024 * 1024,
  maxBatchBodyBytes: 8 * 1024 * 1024,
  allowPrivateWebhooks: false,
  trustProxy: false,
};

/** Merges partial overrides into the defaults (one level deep for rateLimit). */
export function resolveConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...DEFAULT_CONFIG,
    secretKey: ephemeralSecretKey(),
    ...overrides,
    rateLimit: { ...DEFAULT_CONFIG.rateLimit, ...overrides.rateLimit },
  };
}

/** The per-address limit for unauthenticated requests: `addressRateLimit`, else five times `rateLimit`. */
export function addressRateLimit(config: AppConfig): { limit: number; windowSeconds: number } {
  return (
    config.addressRateLimit ?? { limit: config.rateLimit.limit * 5, windowSeconds: config.rateLimit.windowSeconds }
  );
}

/**
 * Settings read from the environment by the CLI: the switches `TRUST_PROXY` and
 * `TREASURY_API_ALLOW_PRIVATE_WEBHOOKS` ("1" or "true" on; "0", "false" or
 * unset off), `METRICS_TOKEN` (at least 16 characters, or unset) and `TREASURY_API_FOUR_EYES_THRESHOLD`
 * (`EUR=100000,NOK=1000000`, as `--four-eyes-threshold`; only present in the result when set).
 * @throws Error naming the variable for any other value.
 */
export function configFromEnv(
  env: Record<string, string | undefined>,
): Pick<AppConfig, "trustProxy" | "allowPrivateWebhooks" | "metricsToken"> &
  Partial<Pick<AppConfig, "fourEyesThresholds">> {
  const flag = (name: string): boolean => {
    const v = env[name]?.trim().toLowerCase();
    if (v === undefined || v === "" || v === "0" || v === "false") return false;
    if (v === "1" || v === "true") return true;
    throw new Error(`${name} must be 1 or 0, got "${env[name]}"`);
  };
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new Error("METRICS_TOKEN must be at least 16 characters");
  const thresholds = env.TREASURY_API_FOUR_EYES_THRESHOLD?.trim();
  let fourEyes: FourEyesThresholds | undefined;
  if (thresholds) {
    try {
      fourEyes = parseFourEyesThresholds(thresholds);
    } catch (err) {
      throw new Error(`TREASURY_API_FOUR_EYES_THRESHOLD: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    trustProxy: flag("TRUST_PROXY"),
    allowPrivateWebhooks: flag("TREASURY_API_ALLOW_PRIVATE_WEBHOOKS"),
    ...(fourEyes ? { fourEyesThresholds: fourEyes } : {}),
    ...(metricsToken ? { metricsToken } : {}),
  };
}
