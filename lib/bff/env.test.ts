import { describe, expect, it } from "vitest";
import { ConfigError, parseDashboardEnv } from "./env";

const OK = { TREASURY_API_BASE_URL: "https://api.example.com/public", TREASURY_CLIENT_ID: "id", TREASURY_CLIENT_SECRET: "secret", NEXTAUTH_SECRET: "x".repeat(32) };

describe("configuration", () => {
  it("parses with defaults", () => {
    const c = parseDashboardEnv(OK);
    expect(c).toMatchObject({ TREASURY_API_FORM: "B", DASHBOARD_DATA_DIR: ".data/dashboard", DASHBOARD_DEMO: false, TREASURY_TIMEOUT_MS: 15000 });
    expect(c.TREASURY_SCOPES).toHaveLength(10);
  });

  it("names every bad or missing variable", () => {
    const err = (() => {
      try {
        parseDashboardEnv({ ...OK, TREASURY_API_BASE_URL: "not a url", NEXTAUTH_SECRET: "short", TREASURY_SCOPES: "read:ledger fly:away", TREASURY_CLIENT_SECRET: "" });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variables.sort()).toEqual(["NEXTAUTH_SECRET", "TREASURY_API_BASE_URL", "TREASURY_CLIENT_SECRET", "TREASURY_SCOPES"]);
    expect((err as ConfigError).message).toContain('unknown scope "fly:away"');
  });

  it("Form A needs a tenant; OIDC needs its client", () => {
    expect(() => parseDashboardEnv({ ...OK, TREASURY_API_FORM: "A" })).toThrow(/TREASURY_TENANT_ID is required when TREASURY_API_FORM is A/);
    expect(() => parseDashboardEnv({ ...OK, OIDC_ISSUER: "https://sso.example.com" })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => parseDashboardEnv({ ...OK, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
  });
});
