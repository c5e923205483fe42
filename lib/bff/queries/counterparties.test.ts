import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
const holder: { db?: unknown } = {};
vi.mock("../../server/db", () => ({ dashboardDb: vi.fn(async () => holder.db) }));

import { openDashboardDb, type DashboardDatabase } from "../../db/client";
import type { DashboardUser } from "../../db/users";
import type { Company } from "@treasury/contract";
import type { BffContext } from "../context";
import { errorOf } from "../testing/bff-error";
import {
  CounterpartyImportBody,
  CounterpartyListQuery,
  changeCounterparty,
  counterpartyDetail,
  createCounterpartyView,
  importCounterpartiesView,
  isoTimestamp,
  listCounterpartyViews,
} from "./counterparties";

const C1 = "11111111-1111-4111-8111-111111111111";
const C2 = "22222222-2222-4222-8222-222222222222";
const company = (id: string) => ({ id, name: id === C1 ? "Nordic AS" : "Other AB" }) as Company;
const user = (n: number, roles: DashboardUser["roles"]): DashboardUser => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  email: `user${n}@example.com`,
  name: `User ${n}`,
  roles,
  companyIds: null,
  disabled: false,
});
const ctxOf = (u: DashboardUser, c = C1): BffContext => ({
  user: u,
  companies: [company(C1), company(C2)],
  company: company(c),
  requestId: "req-test",
});
const meta = () => ({ requestId: "req-test", idempotencyKey: crypto.randomUUID() });
const TREASURER = user(1, ["treasurer"]);
const ADMIN = user(2, ["admin"]);

let database: DashboardDatabase;
beforeAll(async () => {
  database = await openDashboardDb({ dataDir: "memory" });
  holder.db = database.db;
});
afterAll(async () => {
  await database.close();
});

describe("isoTimestamp", () => {
  it("turns the database's text forms into ISO 8601 and keeps ISO input", () => {
    expect(isoTimestamp("2026-11-23 18:00:00.123+00")).toBe("2026-11-23T18:00:00.123Z");
    expect(isoTimestamp("2026-11-23 19:00:00+01")).toBe("2026-11-23T18:00:00.000Z");
    expect(isoTimestamp("2026-11-23T18:00:00.000Z")).toBe("2026-11-23T18:00:00.000Z");
    expect(isoTimestamp("garbage")).toBe("garbage");
  });
});

describe("counterparties in the BFF", () => {
  it("scopes to the selected company, marks the maker, returns ISO timestamps and the history", async () => {
    const c = await createCounterpartyView(ctxOf(TREASURER), { name: "Fjord AS", iban: "NO9386011117947" }, meta());
    expect(c).toMatchObject({ companyId: C1, status: "pending_verification", viewerIsMaker: true, version: 1 });
    expect(c.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await listCounterpartyViews(ctxOf(ADMIN), { search: "fjord" })).items).toMatchObject([
      { id: c.id, viewerIsMaker: false },
    ]);
    // Another selected company neither lists nor reaches it.
    expect((await listCounterpartyViews(ctxOf(ADMIN, C2))).items).toEqual([]);
    expect((await errorOf(counterpartyDetail(ctxOf(ADMIN, C2), c.id))).code).toBe("not_found");
    expect(
      (
        await errorOf(
          changeCounterparty(ctxOf(ADMIN, C2), c.id, "verify", { reason: "ok!", expectedVersion: 1 }, meta()),
        )
      ).code,
    ).toBe("not_found");

    const own = await errorOf(
      changeCounterparty(ctxOf(TREASURER), c.id, "verify", { reason: "mine", expectedVersion: 1 }, meta()),
    );
    expect(own).toMatchObject({ code: "permission_denied", status: 403, details: { reason: "maker_checker" } });
    const v = await changeCounterparty(
      ctxOf(ADMIN),
      c.id,
      "verify",
      { reason: "call-back", expectedVersion: 1 },
      meta(),
    );
    expect(v).toMatchObject({ status: "verified", viewerIsMaker: false, version: 2 });
    const d = await counterpartyDetail(ctxOf(TREASURER), c.id);
    expect(d.history.map((h) => [h.event, h.byEmail])).toEqual([
      ["created", TREASURER.email],
      ["verified", ADMIN.email],
    ]);
    expect(d.history[1]?.at).toMatch(/T.*Z$/);
  });

  it("answers a retry with the same Idempotency-Key with the first result instead of doing it again", async () => {
    const m = meta();
    const a = await createCounterpartyView(ctxOf(TREASURER), { name: "Retry AB", iban: "SE4550000000058398257466" }, m);
    const again = await createCounterpartyView(
      ctxOf(TREASURER),
      { name: "Retry AB", iban: "SE4550000000058398257466" },
      m,
    );
    expect(again.id).toBe(a.id);
    // Another key is a new operation: the IBAN is taken.
    expect(
      (
        await errorOf(
          createCounterpartyView(ctxOf(TREASURER), { name: "Retry AB", iban: "SE4550000000058398257466" }, meta()),
        )
      ).code,
    ).toBe("conflict");
    const vm = meta();
    const v = await changeCounterparty(ctxOf(ADMIN), a.id, "verify", { reason: "call-back", expectedVersion: 1 }, vm);
    const v2 = await changeCounterparty(ctxOf(ADMIN), a.id, "verify", { reason: "call-back", expectedVersion: 1 }, vm);
    expect([v.version, v2.version, v2.status]).toEqual([2, 2, "verified"]);
    expect((await counterpartyDetail(ctxOf(ADMIN), a.id)).history).toHaveLength(2);
  });

  it("names the field of a bad body and of a bad query", async () => {
    const e = await errorOf(createCounterpartyView(ctxOf(TREASURER), { name: "X", iban: "NO00 1234" }, meta()));
    expect(e).toMatchObject({ code: "validation_error", details: { errors: { iban: [expect.any(String)] } } });
    const q = CounterpartyListQuery.safeParse({ status: "approved", limit: "0" });
    expect(q.success).toBe(false);
    expect(q.error?.issues.map((i) => i.path[0]).sort()).toEqual(["limit", "status"]);
  });

  it("imports all lines of a good file as pending, nothing of a bad one", async () => {
    const bad = "name,iban\nA GmbH,DE89370400440532013000\nB Ltd,GB29NWBK60161331926810\n";
    const r = await importCounterpartiesView(ctxOf(TREASURER), { csv: bad }, meta());
    expect(r).toMatchObject({ ok: false, dryRun: false, errors: [{ line: 3, field: "iban" }], created: [] });
    expect((await listCounterpartyViews(ctxOf(TREASURER), { search: "A GmbH" })).items).toEqual([]);
    const dry = await importCounterpartiesView(
      ctxOf(TREASURER),
      { csv: bad.replace("GB29NWBK60161331926810", "GB29NWBK60161331926819"), dryRun: true },
      meta(),
    );
    expect(dry).toMatchObject({ ok: true, dryRun: true, created: [] });
    expect(dry.preview.map((p) => p.line)).toEqual([2, 3]);
    const done = await importCounterpartiesView(
      ctxOf(TREASURER),
      { csv: bad.replace("GB29NWBK60161331926810", "GB29NWBK60161331926819") },
      meta(),
    );
    expect(done.created.map((c) => [c.name, c.status, c.viewerIsMaker])).toEqual([
      ["A GmbH", "pending_verification", true],
      ["B Ltd", "pending_verification", true],
    ]);
    // The import sent again under the same key is answered with the same counterparties.
    const m = meta();
    const good = "name,iban\nC BV,NL91ABNA0417164300\n";
    const first = await importCounterpartiesView(ctxOf(TREASURER), { csv: good }, m);
    const retry = await importCounterpartiesView(ctxOf(TREASURER), { csv: good }, m);
    expect(retry.created.map((c) => c.id)).toEqual(first.created.map((c) => c.id));
  });

  it("a file sent as bytes in Windows-1252 is previewed with its names intact and the encoding named (finding 5)", async () => {
    const latin1 = Buffer.from("name,iban\nSødra Ågård AB,GB82WEST12345698765432\n", "latin1");
    const body = CounterpartyImportBody.parse({ file: latin1.toString("base64"), dryRun: true });
    const dry = await importCounterpartiesView(ctxOf(TREASURER), body, meta());
    expect([dry.errors, dry.fileErrors]).toEqual([[], []]);
    expect(dry).toMatchObject({ ok: true, dryRun: true, encoding: { name: "windows-1252", assumed: true } });
    expect(dry.preview.map((p) => p.name)).toEqual(["Sødra Ågård AB"]);
    // Text and bytes at once, or neither, is refused naming the field; an unknown declared encoding too.
    expect(CounterpartyImportBody.safeParse({ dryRun: true }).success).toBe(false);
    expect(CounterpartyImportBody.safeParse({ csv: "a", file: "YQ==" }).success).toBe(false);
    expect(CounterpartyImportBody.safeParse({ file: "YQ==", encoding: "ebcdic" }).error?.issues[0]?.path).toEqual([
      "encoding",
    ]);
  });
});
