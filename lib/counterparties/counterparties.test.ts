import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { errorOf } from "../bff/testing/bff-error";
import { listAudit } from "../db/audit";
import { memoryDashboardDb } from "../db/test-db";
import {
  changeBankDetails,
  counterpartiesForRisk,
  createCounterparty,
  disableCounterparty,
  getCounterpartyHistory,
  listCounterparties,
  rejectCounterparty,
  verifyCounterparty,
  type Actor,
} from "./counterparties";
import { importCounterpartiesCsv } from "./csv-import";
import { bankDetailsChangedSignals } from "../payments/risk-signals";

const database = memoryDashboardDb();
/** The company each test works in, new per test: no test sees another's counterparties, IBANs or audit entries. */
let C1 = "";
const C2 = "22222222-2222-4222-8222-222222222222";
const actor = (n: number, roles: Actor["roles"], companyIds: string[] | null = null): Actor => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  email: `user${n}@example.com`,
  roles,
  companyIds,
});
const TREASURER = actor(1, ["treasurer"]);
const TREASURER_2 = actor(2, ["treasurer"]);
const ADMIN = actor(3, ["admin"]);
const VIEWER = actor(4, ["viewer"]);
const APPROVER = actor(5, ["approver"]);
const OTHER_COMPANY = actor(6, ["treasurer", "admin"], [C2]);

const IBAN_A = "NO9386011117947";
const IBAN_B = "NO8330001234567";

beforeEach(() => {
  C1 = randomUUID();
});

/** Nordic Supplies AS, pending, holding IBAN_A in the test's company (the counterparty other rules collide with). */
const nordic = () =>
  createCounterparty(database.db, TREASURER, C1, { name: "Nordic Supplies AS", iban: IBAN_A, bic: "DNBANOKK" });

let ibanSeq = 0;
/** A fresh valid Norwegian IBAN per call, so tests do not collide on the one-live-IBAN rule. */
async function freshIban(): Promise<string> {
  const { composeIBAN } = await import("ibantools");
  // Norwegian BBAN: 10 digits + mod-11 check digit (weights 5 4 3 2 7 6 5 4 3 2); skip bodies whose check is 10.
  for (;;) {
    const body = String(4000000000 + ++ibanSeq * 7919).padStart(10, "0");
    const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
    const sum = [...body].reduce((s, d, i) => s + Number(d) * (weights[i] ?? 0), 0);
    const check = (11 - (sum % 11)) % 11;
    if (check === 10) continue;
    const iban = composeIBAN({ countryCode: "NO", bban: body + check });
    if (iban) return iban;
  }
}

describe("create", () => {
  it("stores a pending counterparty with the IBAN in electronic format, history and audit", async () => {
    const c = await createCounterparty(
      database.db,
      TREASURER,
      C1,
      { name: " Nordic Supplies AS ", iban: "no93 8601 1117 947", bic: "dnbanokk", lei: null },
      { requestId: "req-1" },
    );
    expect(c).toMatchObject({
      name: "Nordic Supplies AS",
      iban: IBAN_A,
      bic: "DNBANOKK",
      country: "NO",
      status: "pending_verification",
      createdBy: TREASURER.id,
      version: 1,
    });
    expect(await getCounterpartyHistory(database.db, VIEWER, c.id)).toMatchObject([
      { event: "created", newIban: IBAN_A, newStatus: "pending_verification", byEmail: TREASURER.email },
    ]);
    const audit = await listAudit(database.db, { companyIds: [C1], objectIds: [c.id] });
    expect(audit).toMatchObject([{ action: "counterparties.create", outcome: "success", requestId: "req-1" }]);
  });

  it("names the field of bad input and changes nothing", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ name: "", iban: IBAN_B }, "name", /required/],
      [{ name: "X", iban: "NO93 8601 1117 948" }, "iban", /not a valid IBAN/],
      [{ name: "X", iban: IBAN_B, bic: "DNBA" }, "bic", /not a valid BIC/],
      [{ name: "X", iban: IBAN_B, bic: "NDEASESS" }, "bic", /in SE, but the IBAN is in NO/],
      [{ name: "X", iban: IBAN_B, country: "XX" }, "country", /ISO 3166/],
      [{ name: "X", iban: IBAN_B, lei: "5493001KJTIIGC8Y1R13" }, "lei", /not a valid LEI/],
      [{ name: "X", iban: IBAN_B, defaultRemittance: "x".repeat(141) }, "defaultRemittance", /140/],
    ];
    for (const [input, field, message] of cases) {
      const e = await errorOf(createCounterparty(database.db, TREASURER, C1, input as never));
      expect(e.code).toBe("validation_error");
      expect((e.details.errors as Record<string, string[]>)[field]?.[0]).toMatch(message);
    }
    expect(await listCounterparties(database.db, TREASURER, C1, { search: IBAN_B })).toEqual([]);
  });

  it("accepts a valid LEI and a country other than the IBAN's", async () => {
    const c = await createCounterparty(database.db, ADMIN, C1, {
      name: "Global Bank Client",
      iban: await freshIban(),
      lei: "5493001KJTIIGC8Y1R12",
      country: "se",
      orgnr: "556036-0793",
    });
    expect(c).toMatchObject({ lei: "5493001KJTIIGC8Y1R12", country: "SE", orgnr: "556036-0793" });
  });

  it("refuses a second live counterparty with the same IBAN, viewers, approvers and other companies", async () => {
    await nordic();
    const e = await errorOf(createCounterparty(database.db, TREASURER_2, C1, { name: "Copy", iban: IBAN_A }));
    expect(e).toMatchObject({ code: "conflict", details: { errors: { iban: [expect.stringMatching(/already/)] } } });
    // Another company may hold the same IBAN.
    await expect(
      createCounterparty(database.db, TREASURER, randomUUID(), { name: "Same", iban: IBAN_A }),
    ).resolves.toBeTruthy();
    for (const who of [VIEWER, APPROVER])
      expect((await errorOf(createCounterparty(database.db, who, C1, { name: "V", iban: IBAN_B }))).code).toBe(
        "permission_denied",
      );
    expect((await errorOf(createCounterparty(database.db, OTHER_COMPANY, C1, { name: "V", iban: IBAN_B }))).code).toBe(
      "permission_denied",
    );
  });
});

describe("maker-checker", () => {
  it("the maker cannot verify, a viewer or approver cannot, a second treasurer can", async () => {
    const c = await createCounterparty(database.db, TREASURER, C1, {
      name: "Fjord Consulting",
      iban: await freshIban(),
    });
    const self = await errorOf(
      verifyCounterparty(database.db, TREASURER, c.id, { reason: "checked", expectedVersion: 1 }),
    );
    expect(self).toMatchObject({ code: "permission_denied", details: { reason: "maker_checker" } });
    for (const who of [VIEWER, APPROVER])
      expect(
        (await errorOf(verifyCounterparty(database.db, who, c.id, { reason: "checked", expectedVersion: 1 }))).code,
      ).toBe("permission_denied");
    // Another company's user does not even see it.
    expect(
      (await errorOf(verifyCounterparty(database.db, OTHER_COMPANY, c.id, { reason: "checked", expectedVersion: 1 })))
        .code,
    ).toBe("not_found");
    // A reason is required.
    expect(
      (await errorOf(verifyCounterparty(database.db, TREASURER_2, c.id, { reason: " ", expectedVersion: 1 }))).details,
    ).toMatchObject({ errors: { reason: [expect.stringMatching(/why/)] } });

    const v = await verifyCounterparty(database.db, TREASURER_2, c.id, {
      reason: "Called back on the number in our contract",
      expectedVersion: 1,
    });
    expect(v).toMatchObject({ status: "verified", verifiedBy: TREASURER_2.id, version: 2 });
    const audit = await listAudit(database.db, { companyIds: [C1], objectIds: [c.id] });
    expect(audit.map((a) => [a.action, a.outcome, a.userEmail])).toEqual(
      expect.arrayContaining([
        ["counterparties.verify", "denied", TREASURER.email],
        ["counterparties.verify", "success", TREASURER_2.email],
      ]),
    );
    // Decided already: a second decision is a conflict.
    expect(
      (await errorOf(rejectCounterparty(database.db, ADMIN, c.id, { reason: "not ok", expectedVersion: 2 }))).code,
    ).toBe("conflict");
  });

  it("of two verifiers acting on the same version only one succeeds", async () => {
    const c = await createCounterparty(database.db, TREASURER, C1, { name: "Race AS", iban: await freshIban() });
    const results = await Promise.allSettled([
      verifyCounterparty(database.db, TREASURER_2, c.id, { reason: "ok by Tove", expectedVersion: 1 }),
      rejectCounterparty(database.db, ADMIN, c.id, { reason: "not ok by Ada", expectedVersion: 1 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const lost = results.find((r) => r.status === "rejected");
    expect(lost?.status === "rejected" && lost.reason).toMatchObject({
      code: "conflict",
      details: { reason: "stale_version", version: 2 },
    });
    expect((await getCounterpartyHistory(database.db, ADMIN, c.id)).map((h) => h.event)).toHaveLength(2);
  });
});

describe("bank details change", () => {
  it("puts a verified one back to pending with old and new details; its changer cannot verify", async () => {
    const oldIban = await freshIban();
    const newIban = await freshIban();
    const c = await createCounterparty(database.db, TREASURER, C1, { name: "Vendor Oy", iban: oldIban });
    await verifyCounterparty(database.db, ADMIN, c.id, { reason: "call-back", expectedVersion: 1 });

    // Stale version: refused.
    expect(
      (
        await errorOf(
          changeBankDetails(database.db, ADMIN, c.id, { iban: newIban, reason: "letter", expectedVersion: 1 }),
        )
      ).code,
    ).toBe("conflict");
    const changed = await changeBankDetails(database.db, ADMIN, c.id, {
      iban: newIban.replace(/(.{4})/g, "$1 ").toLowerCase(),
      bic: "DNBANOKK",
      reason: "Supplier's letter of 3 March",
      expectedVersion: 2,
    });
    expect(changed).toMatchObject({
      status: "pending_verification",
      iban: newIban,
      bic: "DNBANOKK",
      bankDetailsChangedBy: ADMIN.id,
      version: 3,
    });
    const hist = await getCounterpartyHistory(database.db, TREASURER, c.id);
    expect(hist.at(-1)).toMatchObject({
      event: "bank_details_changed",
      oldIban,
      newIban,
      oldBic: null,
      newBic: "DNBANOKK",
      oldStatus: "verified",
      newStatus: "pending_verification",
      byEmail: ADMIN.email,
      reason: "Supplier's letter of 3 March",
    });
    // The changer may not verify; the original creator may (the creation was verified already).
    expect(
      (await errorOf(verifyCounterparty(database.db, ADMIN, c.id, { reason: "fine", expectedVersion: 3 }))).details,
    ).toMatchObject({ reason: "maker_checker" });
    await expect(
      verifyCounterparty(database.db, TREASURER, c.id, { reason: "called the CFO", expectedVersion: 3 }),
    ).resolves.toMatchObject({ status: "verified", version: 4 });
    // The next batch to the new IBAN carries "bank details changed", with the change as evidence.
    const today = new Date().toISOString().slice(0, 10);
    const signals = bankDetailsChangedSignals(
      {
        currency: "NOK",
        instructions: [
          { amount: "10.00", currency: "NOK", creditorName: "Vendor Oy", creditorIban: newIban, endToEndId: "e1" },
        ],
      },
      { today, history: [], counterparties: await counterpartiesForRisk(database.db, VIEWER, C1) },
    );
    expect(signals).toEqual([
      expect.objectContaining({
        code: "bank_details_changed",
        evidence: expect.objectContaining({
          counterparty_id: c.id,
          changes: [expect.objectContaining({ old_iban: oldIban, new_iban: newIban, by: ADMIN.email })],
        }),
      }),
    ]);
    const audit = await listAudit(database.db, {
      companyIds: [C1],
      objectIds: [c.id],
      action: "counterparties.bank_details.change",
    });
    expect(audit[0]?.details).toMatchObject({ old_iban: oldIban, new_iban: newIban, from: "verified" });
  });

  it("keeps out the creator of a never-verified one, refuses a taken IBAN, history append-only", async () => {
    await nordic();
    const c = await createCounterparty(database.db, TREASURER, C1, { name: "Two Makers", iban: await freshIban() });
    await changeBankDetails(database.db, TREASURER_2, c.id, {
      iban: await freshIban(),
      reason: "typo",
      expectedVersion: 1,
    });
    // An IBAN another live counterparty of the company holds is refused.
    expect(
      await errorOf(changeBankDetails(database.db, ADMIN, c.id, { iban: IBAN_A, reason: "merge", expectedVersion: 2 })),
    ).toMatchObject({ code: "conflict", details: { errors: { iban: [expect.stringMatching(/already/)] } } });
    for (const who of [TREASURER, TREASURER_2])
      expect(
        (await errorOf(verifyCounterparty(database.db, who, c.id, { reason: "x y", expectedVersion: 2 }))).code,
      ).toBe("permission_denied");
    await expect(
      rejectCounterparty(database.db, ADMIN, c.id, { reason: "unknown supplier", expectedVersion: 2 }),
    ).resolves.toMatchObject({
      status: "rejected",
    });
    await expect(database.db.execute(sql`delete from counterparty_history`)).rejects.toThrow();
  });

  it("disables from any live state, once", async () => {
    const c = await createCounterparty(database.db, TREASURER, C1, { name: "Gone AS", iban: await freshIban() });
    expect(
      (await errorOf(disableCounterparty(database.db, VIEWER, c.id, { reason: "closed", expectedVersion: 1 }))).code,
    ).toBe("permission_denied");
    await expect(
      disableCounterparty(database.db, TREASURER, c.id, { reason: "closed", expectedVersion: 1 }),
    ).resolves.toMatchObject({
      status: "disabled",
    });
    expect(
      (await errorOf(disableCounterparty(database.db, TREASURER, c.id, { reason: "again", expectedVersion: 2 })))
        .details,
    ).toMatchObject({
      state: "disabled",
    });
    // Its IBAN may be used by a new counterparty now.
    await expect(
      createCounterparty(database.db, TREASURER, C1, { name: "Back AS", iban: c.iban }),
    ).resolves.toBeTruthy();
  });
});

describe("list", () => {
  it("searches by name or IBAN in any notation, within the company", async () => {
    await nordic();
    await createCounterparty(database.db, TREASURER, C1, { name: "Fjord Consulting", iban: await freshIban() });
    // Another company's counterparty with the same name and IBAN stays out of this company's list.
    await createCounterparty(database.db, TREASURER, randomUUID(), { name: "Nordic Supplies AS", iban: IBAN_A });
    const byName = await listCounterparties(database.db, VIEWER, C1, { search: "nordic" });
    expect(byName.map((c) => c.name)).toEqual(["Nordic Supplies AS"]);
    const byIban = await listCounterparties(database.db, VIEWER, C1, { search: "8601 1117" });
    expect(byIban.map((c) => c.iban)).toEqual([IBAN_A]);
    expect(await listCounterparties(database.db, VIEWER, C1, { search: "100%_" })).toEqual([]);
    expect((await errorOf(listCounterparties(database.db, OTHER_COMPANY, C1))).code).toBe("permission_denied");
  });
});

describe("CSV import", () => {
  it("imports a good file as pending counterparties, after a dry run that writes nothing", async () => {
    const [i1, i2] = [await freshIban(), await freshIban()];
    const csv =
      "\uFEFFName;IBAN;BIC;Org-Number;Remittance\r\n" +
      `Alpha AS;${i1};DNBANOKK;912345678;Invoice\r\n\r\n` +
      `"Beta; Oy";${i2.toLowerCase()};;;\r\n`;
    const dry = await importCounterpartiesCsv(database.db, TREASURER, C1, csv, { dryRun: true });
    expect(dry).toMatchObject({ ok: true, errors: [], fileErrors: [], created: [] });
    expect(dry.preview.map((p) => [p.line, p.name, p.iban])).toEqual([
      [2, "Alpha AS", i1],
      [4, "Beta; Oy", i2],
    ]);
    expect(await listCounterparties(database.db, TREASURER, C1, { search: "Alpha" })).toEqual([]);

    const done = await importCounterpartiesCsv(database.db, TREASURER, C1, csv, { requestId: "imp-1" });
    expect(done.ok).toBe(true);
    expect(done.created.map((c) => [c.name, c.status, c.orgnr, c.defaultRemittance])).toEqual([
      ["Alpha AS", "pending_verification", "912345678", "Invoice"],
      ["Beta; Oy", "pending_verification", null, null],
    ]);
    const audit = await listAudit(database.db, { companyIds: [C1], action: "counterparties.import" });
    expect(audit.filter((a) => a.requestId === "imp-1")).toHaveLength(2);
  });

  it("imports nothing from a file with a bad line and reports every problem by line and field", async () => {
    await nordic();
    const good = await freshIban();
    const csv = [
      "name,iban,bic",
      `Good AS,${good},`,
      "Bad Iban AS,NO93 8601 1117 948,",
      `"Multi`,
      `line AS",${await freshIban()},NOPE`,
      `Repeat AS,${good},`,
      `Taken AS,${IBAN_A},`,
      "Too,many,fields,here",
      `,${await freshIban()},`,
    ].join("\n");
    const r = await importCounterpartiesCsv(database.db, TREASURER, C1, csv);
    expect(r.ok).toBe(false);
    expect(r.created).toEqual([]);
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [3, "iban"],
      [4, "bic"],
      [6, "iban"],
      [7, "iban"],
      [8, null],
      [9, "name"],
    ]);
    expect(r.errors[2]?.message).toMatch(/repeats the IBAN of line 2/);
    expect(r.errors[3]?.message).toMatch(/already belongs to the counterparty "Nordic Supplies AS"/);
    expect(await listCounterparties(database.db, TREASURER, C1, { search: "Good AS" })).toEqual([]);
  });

  it("reports file problems: missing or unknown columns, no lines; and refuses viewers", async () => {
    expect((await importCounterpartiesCsv(database.db, TREASURER, C1, "name,bicc\nA,B\n")).fileErrors).toEqual([
      "The header row lacks iban.",
      expect.stringMatching(/Unknown column\(s\) bicc/),
    ]);
    expect((await importCounterpartiesCsv(database.db, TREASURER, C1, "name,iban\n")).fileErrors).toEqual([
      "The file holds no lines below the header.",
    ]);
    expect((await errorOf(importCounterpartiesCsv(database.db, VIEWER, C1, "name,iban\n"))).code).toBe(
      "permission_denied",
    );
  });

  describe("encodings (issue 28 finding 5)", () => {
    const latin1 = (text: string) => Uint8Array.from([...text].map((ch) => ch.charCodeAt(0)));

    it("a Windows-1252 / ISO-8859-1 file (not UTF-8) is read as Windows-1252, and the preview says so", async () => {
      const iban = await freshIban();
      const bytes = latin1(`name,iban\nBjørn Ærlig Ålesund AS,${iban}\n`);
      const r = await importCounterpartiesCsv(database.db, TREASURER, C1, { bytes }, { dryRun: true });
      expect(r.ok).toBe(true);
      expect(r.preview[0]?.name).toBe("Bjørn Ærlig Ålesund AS");
      expect(r.encoding).toEqual({ name: "windows-1252", assumed: true });
    });

    it("UTF-8 (with or without BOM), UTF-16 by BOM, and a declared encoding are read as such", async () => {
      const iban = await freshIban();
      const text = `name,iban\nKøbenhavn Ærø ApS,${iban}\n`;
      const utf8 = new TextEncoder().encode(text);
      const plain = await importCounterpartiesCsv(database.db, TREASURER, C1, { bytes: utf8 }, { dryRun: true });
      expect([plain.preview[0]?.name, plain.encoding]).toEqual([
        "København Ærø ApS",
        { name: "utf-8", assumed: false },
      ]);
      const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8]);
      const withBom = await importCounterpartiesCsv(database.db, TREASURER, C1, { bytes: bom }, { dryRun: true });
      expect([withBom.preview[0]?.name, withBom.encoding?.name]).toEqual(["København Ærø ApS", "utf-8"]);
      const utf16 = Uint8Array.from([0xff, 0xfe, ...[...text].flatMap((ch) => [ch.charCodeAt(0), 0])]);
      const le = await importCounterpartiesCsv(database.db, TREASURER, C1, { bytes: utf16 }, { dryRun: true });
      expect([le.ok, le.preview[0]?.name, le.encoding?.name]).toEqual([true, "København Ærø ApS", "utf-16le"]);
      // Declared ISO-8859-1: read as such, even where the bytes would also be valid UTF-8.
      const declared = await importCounterpartiesCsv(
        database.db,
        TREASURER,
        C1,
        { bytes: latin1(`name,iban\nÃ¸ AS,${iban}\n`), encoding: "iso-8859-1" },
        { dryRun: true },
      );
      expect([declared.preview[0]?.name, declared.encoding]).toEqual(["Ã¸ AS", { name: "iso-8859-1", assumed: false }]);
    });

    it("what cannot be decoded is refused naming the line, dry run included; nothing is stored", async () => {
      const [i1, i2] = [await freshIban(), await freshIban()];
      // 0x81 is no character in Windows-1252, so a file that is not UTF-8 and holds it cannot be read.
      const bytes = Uint8Array.from([...latin1(`name,iban\nGood AS,${i1}\nBad `), 0x81, ...latin1(` AS,${i2}\n`)]);
      for (const dryRun of [true, false]) {
        const r = await importCounterpartiesCsv(database.db, TREASURER, C1, { bytes }, { dryRun });
        expect(r.ok).toBe(false);
        expect(r.errors.map((e) => e.line)).toEqual([3]);
        expect(r.errors[0]?.message).toMatch(/could not be decoded/);
        expect(r.created).toEqual([]);
      }
      // Text already decoded with replacement characters (U+FFFD), or holding a NUL: refused the same way.
      const replaced = await importCounterpartiesCsv(
        database.db,
        TREASURER,
        C1,
        `name,iban\nOk AS,${i1}\nM\uFFFDller AS,${i2}\n`,
        { dryRun: true },
      );
      expect([replaced.ok, replaced.errors.map((e) => e.line)]).toEqual([false, [3]]);
      const nul = await importCounterpartiesCsv(
        database.db,
        TREASURER,
        C1,
        { bytes: new TextEncoder().encode(`name,iban\nNul\u0000 AS,${i1}\n`) },
        { dryRun: true },
      );
      expect([nul.ok, nul.errors.map((e) => e.line)]).toEqual([false, [2]]);
      expect(await listCounterparties(database.db, TREASURER, C1, { search: "Good AS" })).toEqual([]);
    });
  });
});
