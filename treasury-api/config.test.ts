/**
 * The switches that are off unless someone turns them on (docs/architecture.md#webhooks;
 * docs/treasury-api.md#the-local-treasury-api): private webhook targets and
 * trusting X-Forwarded-*, from the environment and the CLI flags.
 */
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_CONFIG, configFromEnv } from "./config";
import { parseArgs } from "./server";

describe("configFromEnv", () => {
  it("is off when unset, on for 1 / true, off for 0 / false", () => {
    expect(configFromEnv({})).toEqual({ trustProxy: false, allowPrivateWebhooks: false });
    expect(configFromEnv({ TRUST_PROXY: "1", TREASURY_API_ALLOW_PRIVATE_WEBHOOKS: "true" })).toEqual({
      trustProxy: true,
      allowPrivateWebhooks: true,
    });
    expect(configFromEnv({ TRUST_PROXY: "0", TREASURY_API_ALLOW_PRIVATE_WEBHOOKS: "false" })).toEqual({
      trustProxy: false,
      allowPrivateWebhooks: false,
    });
  });

  it("refuses any other value, naming the variable", () => {
    expect(() => configFromEnv({ TRUST_PROXY: "yes please" })).toThrow(/TRUST_PROXY/);
    expect(() => configFromEnv({ TREASURY_API_ALLOW_PRIVATE_WEBHOOKS: "2" })).toThrow(
      /TREASURY_API_ALLOW_PRIVATE_WEBHOOKS/,
    );
  });
});

describe("METRICS_TOKEN", () => {
  it("is optional (blank means unset), needs 16 or more characters, and a short one is named", () => {
    expect(configFromEnv({}).metricsToken).toBeUndefined();
    expect(configFromEnv({ METRICS_TOKEN: " " }).metricsToken).toBeUndefined();
    expect(configFromEnv({ METRICS_TOKEN: " 0123456789abcdef " }).metricsToken).toBe("0123456789abcdef");
    expect(() => configFromEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
  });
});

describe("CLI flags", () => {
  it("npm run treasury-api allows neither private webhooks nor forwarded headers by default", () => {
    expect(DEFAULT_CONFIG.allowPrivateWebhooks).toBe(false);
    expect(DEFAULT_CONFIG.trustProxy).toBe(false);
    const { opts } = parseArgs([]);
    expect(opts.config?.allowPrivateWebhooks ?? false).toBe(false);
    expect(opts.config?.trustProxy ?? false).toBe(false);
  });

  it("--allow-private-webhooks and --trust-proxy turn them on", () => {
    const { opts } = parseArgs(["--allow-private-webhooks", "--trust-proxy", "--port", "0"]);
    expect(opts.config).toMatchObject({ allowPrivateWebhooks: true, trustProxy: true });
    expect(opts.port).toBe(0);
  });

  it("--simulated-bank: folder for a data folder, direct for memory, unless named; a bad value exits", () => {
    expect(parseArgs([]).opts.simulatedBank).toBe("folder");
    expect(parseArgs(["--data", "memory"]).opts.simulatedBank).toBe("direct");
    expect(parseArgs(["--data", "memory", "--simulated-bank", "folder"]).opts.simulatedBank).toBe("folder");
    expect(parseArgs(["--simulated-bank", "direct"]).opts.simulatedBank).toBe("direct");
    const exit = vi.spyOn(process, "exit").mockImplementation(() => {
      throw new Error("exit");
    });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(() => parseArgs(["--simulated-bank", "sftp"])).toThrow("exit");
      expect(exit).toHaveBeenCalledWith(2);
      expect(String(stderr.mock.calls[0]?.[0])).toContain("--simulated-bank must be folder or direct");
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });

  it("--seed-companies and --seed-accounts-per-company set the seed size; a bad value exits naming the flag", () => {
    expect(parseArgs([]).opts.seedSize).toEqual({ companies: 5, accountsPerCompany: null });
    const { opts } = parseArgs(["--seed-companies", "50", "--seed-accounts-per-company", "20"]);
    expect(opts.seedSize).toEqual({ companies: 50, accountsPerCompany: 20 });
    const exit = vi.spyOn(process, "exit").mockImplementation(() => {
      throw new Error("exit");
    });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(() => parseArgs(["--seed-companies", "4"])).toThrow("exit");
      expect(exit).toHaveBeenCalledWith(2);
      expect(String(stderr.mock.calls[0]?.[0])).toContain(
        '--seed-companies must be a whole number from 5 to 500, got "4"',
      );
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });
});
