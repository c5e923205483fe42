/**
 * Secrets at rest (docs/architecture.md#webhooks; lib/secret-box.ts): the key format
 * and its errors, AES-256-GCM round trips, the key file, and through the API:
 * no `whsec_` in any row after create and rotate, the replay of a create still
 * returns the secret, deliveries still verify, plain-text rows of an older
 * version are encrypted at start, and another key is refused at start with a
 * message naming TREASURY_API_SECRET_KEY.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import * as s from "../db/schema";
import { IDS } from "../test/harness";
import { webhookHarnessForFile } from "../test/webhook-harness";
import { runWebhooksOnce } from "../webhooks/delivery";
import { enqueueEvents } from "../webhooks/outbox";
import {
  SecretKeyError,
  isSealed,
  openSecret,
  parseSecretKey,
  prepareSecretsAtRest,
  resolveSecretKey,
  sealSecret,
} from "./secret-box";

const KEY = randomBytes(32);

describe("keys and encryption", () => {
  it("accepts 32 bytes as hex, base64 or base64url; anything else names the variable", () => {
    expect(parseSecretKey(KEY.toString("hex"))).toEqual(KEY);
    expect(parseSecretKey(` ${KEY.toString("base64")}\n`)).toEqual(KEY);
    expect(parseSecretKey(KEY.toString("base64url"))).toEqual(KEY);
    for (const bad of [
      "",
      "short",
      randomBytes(31).toString("base64"),
      randomBytes(33).toString("hex"),
      "z".repeat(64),
    ]) {
      expect(() => parseSecretKey(bad)).toThrow(/TREASURY_API_SECRET_KEY must be 32 random bytes/);
    }
  });

  it("seals with a random IV, opens with the key, refuses another key, passes plain-text rows through", () => {
    const a = sealSecret(KEY, "whsec_abc");
    expect(a).toMatch(/^enc:v1:/);
    expect(a).not.toContain("whsec_");
    expect(sealSecret(KEY, "whsec_abc")).not.toBe(a);
    expect(openSecret(KEY, a)).toBe("whsec_abc");
    expect(() => openSecret(randomBytes(32), a)).toThrow(SecretKeyError);
    expect(() => openSecret(randomBytes(32), a)).toThrow(/TREASURY_API_SECRET_KEY/);
    expect(openSecret(KEY, "whsec_legacy")).toBe("whsec_legacy");
  });

  it(
    "the variable wins; else a key file is created in the data folder (0600) and reused; memory gets a process " +
      "key",
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), "secret-key-"));
      try {
        const first = resolveSecretKey({}, dir);
        expect(first.source).toBe("file");
        expect(statSync(path.join(dir, "secret-key")).mode & 0o777).toBe(0o600);
        expect(resolveSecretKey({}, dir).key).toEqual(first.key);
        expect(resolveSecretKey({ TREASURY_API_SECRET_KEY: KEY.toString("hex") }, dir)).toEqual({
          key: KEY,
          source: "variable",
        });
        expect(() => resolveSecretKey({ TREASURY_API_SECRET_KEY: "not-a-key" }, dir)).toThrow(
          /TREASURY_API_SECRET_KEY/,
        );
        expect(resolveSecretKey({}, "memory").source).toBe("ephemeral");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("through the API", () => {
  const { h, rx, config } = webhookHarnessForFile({ secretKey: KEY });

  const plainRows = async () =>
    (
      await queryRows<{ n: number }>(
        h.database.db,
        sql`select (select count(*) from webhook_endpoints where secret like '%whsec_%' or previous_secret like
          '%whsec_%')
                 + (select count(*) from idempotency_keys where response_body like '%whsec_%') as n`,
      )
    )[0]?.n;

  it(
    "rows hold no whsec_ after create and rotate; the replay of the create returns the secret; deliveries verify " +
      "with both secrets",
    async () => {
      const json = { url: `${rx.url}/at-rest`, events: ["transaction.created"] };
      const created = await h.call("POST", "/webhooks", { client: "fullB", json, idem: "at-rest-create" });
      expect(created.status).toBe(201);
      const ep = (await created.json()) as { id: string; secret: string };
      expect(ep.secret).toMatch(/^whsec_/);
      const replay = await h.call("POST", "/webhooks", { client: "fullB", json, idem: "at-rest-create" });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(((await replay.json()) as { secret: string }).secret).toBe(ep.secret);
      expect(Number(await plainRows())).toBe(0);

      const rotated = await h.call("PATCH", `/webhooks/${ep.id}`, {
        client: "fullB",
        json: { rotate_secret: true },
        idem: "at-rest-rotate",
      });
      const newSecret = ((await rotated.json()) as { secret: string }).secret;
      expect(newSecret).toMatch(/^whsec_/);
      expect(Number(await plainRows())).toBe(0);
      const [row] = await h.database.db.select().from(s.webhookEndpoints).where(eq(s.webhookEndpoints.id, ep.id));
      expect(isSealed(row?.secret ?? "") && isSealed(row?.previousSecret ?? "")).toBe(true);

      rx.secrets.set("old", ep.secret);
      rx.secrets.set("new", newSecret);
      await enqueueEvents(h.database.db, [
        { tenantId: IDS.tenant, companyId: IDS.companyA, type: "transaction.created", data: { marker: "at-rest" } },
      ]);
      for (let i = 0; i < 50 && !rx.received.some((d) => d.path === "/at-rest"); i++)
        await runWebhooksOnce(h.database.db, config);
      const got = rx.received.filter((d) => d.path === "/at-rest");
      expect(got).toHaveLength(1);
      expect(got[0]?.validFor.sort()).toEqual(["new", "old"]);
    },
  );

  it(
    "at start: plain-text rows of an older version are encrypted (and still work); another key is refused naming " +
      "the variable",
    async () => {
      const [client] = await queryRows<{ id: string; tenant_id: string }>(
        h.database.db,
        sql`select id, tenant_id from oauth_clients limit 1`,
      );
      if (!client) throw new Error("no client");
      const legacyId = crypto.randomUUID();
      await h.database.db.insert(s.webhookEndpoints).values({
        id: legacyId,
        clientId: client.id,
        tenantId: client.tenant_id,
        url: `${rx.url}/legacy`,
        events: ["transaction.created"],
        secret: "whsec_legacy-current",
        previousSecret: "whsec_legacy-previous",
      });
      await h.database.db.insert(s.idempotencyKeys).values({
        clientId: client.id,
        key: "legacy-response",
        fingerprint: "f",
        state: "done",
        statusCode: 201,
        responseBody: '{"secret":"whsec_legacy-current"}',
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      });
      expect(Number(await plainRows())).toBe(2);
      const { encrypted } = await prepareSecretsAtRest(h.database.db, KEY);
      expect(encrypted).toBe(2);
      expect(Number(await plainRows())).toBe(0);
      const [row] = await h.database.db.select().from(s.webhookEndpoints).where(eq(s.webhookEndpoints.id, legacyId));
      expect(openSecret(KEY, row?.secret ?? "")).toBe("whsec_legacy-current");
      expect(openSecret(KEY, row?.previousSecret ?? "")).toBe("whsec_legacy-previous");
      const [idem] = await h.database.db
        .select()
        .from(s.idempotencyKeys)
        .where(eq(s.idempotencyKeys.key, "legacy-response"));
      expect(openSecret(KEY, idem?.responseBody ?? "")).toBe('{"secret":"whsec_legacy-current"}');

      await expect(prepareSecretsAtRest(h.database.db, KEY)).resolves.toEqual({ encrypted: 0 });
      await expect(prepareSecretsAtRest(h.database.db, randomBytes(32))).rejects.toThrow(
        /TREASURY_API_SECRET_KEY is not the key this database's secrets were encrypted with/,
      );
    },
  );
});
