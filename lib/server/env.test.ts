import { describe, expect, it } from "vitest";
import { ConfigError, parseDashboardEnv } from "./env";

const OK = {
  TREASURY_API_BASE_URL: "https://api.example.com/public",
  TREASURY_CLIENT_ID: "id",
  TREASURY_CLIENT_SECRET: "secret",
  NEXTAUTH_SECRET: "x".repeat(32),
};

describe("configuration", () => {
  it("parses with defaults", () => {
    const c = parseDashboardEnv(OK);
    expect(c).toMatchObject({
      TREASURY_API_FORM: "B",
      DASHBOARD_DATA_DIR: ".data/dashboard",
      DASHBOARD_DEMO: false,
      TREASURY_TIMEOUT_MS: 15000,
    });
    expect(c.TREASURY_SCOPES).toHaveLength(10);
  });

  it("names every bad or missing variable", () => {
    const err = (() => {
      try {
        parseDashboardEnv({
          ...OK,
          TREASURY_API_BASE_URL: "not a url",
          NEXTAUTH_SECRET: "short",
          TREASURY_SCOPES: "read:ledger fly:away",
          TREASURY_CLIENT_SECRET: "",
        });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variables.sort()).toEqual([
      "NEXTAUTH_SECRET",
      "TREASURY_API_BASE_URL",
      "TREASURY_CLIENT_SECRET",
      "TREASURY_SCOPES",
    ]);
    expect((err as ConfigError).message).toContain('unknown scope "fly:away"');
  });

  it("DASHBOARD_STEP_UP: required, optional or off; unset left to the demo-mode default; anything else is named", () => {
    expect(parseDashboardEnv(OK).DASHBOARD_STEP_UP).toBeUndefined();
    expect(parseDashboardEnv({ ...OK, DASHBOARD_STEP_UP: "off" }).DASHBOARD_STEP_UP).toBe("off");
    expect(() => parseDashboardEnv({ ...OK, DASHBOARD_STEP_UP: "sometimes" })).toThrow(
      /DASHBOARD_STEP_UP must be required, optional or off/,
    );
  });

  it("Form A needs a tenant; OIDC needs its client", () => {
    expect(() => parseDashboardEnv({ ...OK, TREASURY_API_FORM: "A" })).toThrow(
      /TREASURY_TENANT_ID is required when TREASURY_API_FORM is A/,
    );
    expect(() => parseDashboardEnv({ ...OK, OIDC_ISSUER: "https://sso.example.com" })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => parseDashboardEnv({ ...OK, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
  });

  it("single sign-on: an https issuer (http only on loopback) and a fixed NEXTAUTH_URL for the redirect URI", () => {
    const SSO = {
      ...OK,
      OIDC_CLIENT_ID: "dashboard",
      OIDC_CLIENT_SECRET: "s",
      NEXTAUTH_URL: "https://treasury.example.com",
    };
    expect(parseDashboardEnv({ ...SSO, OIDC_ISSUER: "https://sso.example.com/realms/x" }).OIDC_ISSUER).toBe(
      "https://sso.example.com/realms/x",
    );
    for (const local of ["http://127.0.0.1:4444", "http://localhost:8080/realms/x", "http://[::1]:9000"])
      expect(parseDashboardEnv({ ...SSO, OIDC_ISSUER: local }).OIDC_ISSUER).toBe(local);
    expect(() => parseDashboardEnv({ ...SSO, OIDC_ISSUER: "http://sso.example.com" })).toThrow(
      /OIDC_ISSUER must be an https:\/\/ URL/,
    );
    expect(() => parseDashboardEnv({ ...SSO, OIDC_ISSUER: "http://127.0.0.1.example.com" })).toThrow(/OIDC_ISSUER/);
    expect(() => parseDashboardEnv({ ...SSO, OIDC_ISSUER: "https://sso.example.com", NEXTAUTH_URL: "" })).toThrow(
      /NEXTAUTH_URL is required when OIDC_ISSUER is set/,
    );
    // Without single sign-on NEXTAUTH_URL stays optional.
    expect(parseDashboardEnv(OK).NEXTAUTH_URL).toBeUndefined();
  });
});

describe("auto-confirm sweep configuration", () => {
  it("is off unless set; takes 0 or 10 to 86400 seconds; anything else is named", () => {
    expect(parseDashboardEnv(OK).DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS).toBeUndefined();
    expect(parseDashboardEnv({ ...OK, DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS: "60" })).toMatchObject({
      DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS: 60,
    });
    expect(parseDashboardEnv({ ...OK, DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS: "0" })).toMatchObject({
      DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS: 0,
    });
    for (const bad of ["5", "86401", "1.5", "-10", "soon"]) {
      let err: unknown = null;
      try {
        parseDashboardEnv({ ...OK, DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS: bad });
      } catch (e) {
        err = e;
      }
      expect((err as ConfigError).variables, bad).toEqual(["DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS"]);
    }
  });
});

describe("FX rates configuration", () => {
  it("is off by default, takes an http(s) URL and an interval in minutes", () => {
    const defaults = parseDashboardEnv(OK);
    expect(defaults.FX_RATES_URL).toBeUndefined();
    expect(defaults.FX_RATES_INTERVAL_MINUTES).toBe(60);
    expect(defaults.DASHBOARD_REPORTING_CURRENCY).toBe("EUR");
    expect(parseDashboardEnv({ ...OK, DASHBOARD_REPORTING_CURRENCY: "NOK" }).DASHBOARD_REPORTING_CURRENCY).toBe("NOK");
    expect(
      parseDashboardEnv({
        ...OK,
        FX_RATES_URL: "https://rates.example/eurofxref-daily.xml",
        FX_RATES_INTERVAL_MINUTES: "15",
      }),
    ).toMatchObject({ FX_RATES_URL: "https://rates.example/eurofxref-daily.xml", FX_RATES_INTERVAL_MINUTES: 15 });
    const err = (() => {
      try {
        parseDashboardEnv({
          ...OK,
          FX_RATES_URL: "ftp://rates.example/x.xml",
          FX_RATES_INTERVAL_MINUTES: "1",
          DASHBOARD_REPORTING_CURRENCY: "nok",
        });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect((err as ConfigError).variables.sort()).toEqual([
      "DASHBOARD_REPORTING_CURRENCY",
      "FX_RATES_INTERVAL_MINUTES",
      "FX_RATES_URL",
    ]);
  });
  it("DASHBOARD_ALLOWED_ORIGINS: absolute http(s) URLs kept as origins; a bad entry is named", () => {
    expect(
      parseDashboardEnv({ ...OK, DASHBOARD_ALLOWED_ORIGINS: "https://a.example.com/x, http://127.0.0.1:3001" })
        .DASHBOARD_ALLOWED_ORIGINS,
    ).toEqual(["https://a.example.com", "http://127.0.0.1:3001"]);
    expect(parseDashboardEnv(OK).DASHBOARD_ALLOWED_ORIGINS).toEqual([]);
    expect(() => parseDashboardEnv({ ...OK, DASHBOARD_ALLOWED_ORIGINS: "https://a.example.com ftp://x" })).toThrow(
      /DASHBOARD_ALLOWED_ORIGINS.*"ftp:\/\/x"/,
    );
  });

  it("takes REDIS_URL as a redis:// or rediss:// URL and names it otherwise; the upstream cache is on by default", () => {
    const defaults = parseDashboardEnv(OK);
    expect([defaults.REDIS_URL, defaults.DASHBOARD_UPSTREAM_CACHE]).toEqual([undefined, true]);
    expect(parseDashboardEnv({ ...OK, REDIS_URL: "redis://:pw@cache.internal:6379/0" }).REDIS_URL).toBe(
      "redis://:pw@cache.internal:6379/0",
    );
    expect(parseDashboardEnv({ ...OK, DASHBOARD_UPSTREAM_CACHE: "0" }).DASHBOARD_UPSTREAM_CACHE).toBe(false);
    expect(() => parseDashboardEnv({ ...OK, REDIS_URL: "http://cache:6379" })).toThrow(
      /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => parseDashboardEnv({ ...OK, DASHBOARD_UPSTREAM_CACHE: "yes" })).toThrow(
      /DASHBOARD_UPSTREAM_CACHE must be 0 or 1/,
    );
  });
});

describe("METRICS_TOKEN", () => {
  it("is optional (blank means unset), needs 16 or more characters, and a short one is named", () => {
    expect(parseDashboardEnv(OK).METRICS_TOKEN).toBeUndefined();
    expect(parseDashboardEnv({ ...OK, METRICS_TOKEN: "  " }).METRICS_TOKEN).toBeUndefined();
    expect(parseDashboardEnv({ ...OK, METRICS_TOKEN: " 0123456789abcdef " }).METRICS_TOKEN).toBe("0123456789abcdef");
    expect(() => parseDashboardEnv({ ...OK, METRICS_TOKEN: "short" })).toThrow(
      /METRICS_TOKEN must be at least 16 characters/,
    );
  });
});
