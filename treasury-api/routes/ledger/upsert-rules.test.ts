/**
 * Rules of the account and company upserts beyond create-or-update: the
 * currency of an account with history is immutable (409 naming currency,
 * nothing changed), and an identity held by a company the caller cannot see
 * is refused with exactly the answer a company the caller may not access gets,
 * so a refusal does not tell whether the identity exists elsewhere. Both forms.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { IDS, type ClientKey } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile();

type Json = Record<string, unknown>;
const body = async (res: Response) => (await res.json()) as Json;

/** Form B sends X-Company-ID (required); Form A sends it too, narrowing to the company. */
const FORMS: { form: string; client: ClientKey }[] = [
  { form: "Form B", client: "fullB" },
  { form: "Form A", client: "partnerA" },
];

async function accountRow(id: string) {
  const [row] = await h.database.db.select().from(s.accounts).where(eq(s.accounts.id, id));
  return row;
}

const upsertOf = (
  a: { bankId: string; externalRef: string; currency: string; companyId: string },
  patch: Json = {},
) => ({
  company_id: a.companyId,
  bank_id: a.bankId,
  external_ref: a.externalRef,
  external_ref_type: "IBAN",
  currency: a.currency,
  status: "active",
  ...patch,
});

describe.each(FORMS)("account currency ($form)", ({ client }) => {
  it("an account with transactions keeps its currency: 409 conflict naming currency, nothing changed", async () => {
    const before = await accountRow(IDS.accountA1);
    if (!before) throw new Error("fixture account missing");
    const json = upsertOf(before, { currency: "KWD", name: "Renamed", status: "closed" });
    const res = await h.write("POST", "/accounts", { client, json });
    expect(res.status).toBe(409);
    expect(await body(res)).toMatchObject({ error: "conflict", details: { field: "currency", currency: "NOK" } });
    expect(await accountRow(IDS.accountA1)).toEqual(before);
    const got = await body(await h.call("GET", `/accounts/${IDS.accountA1}`, { client, company: IDS.companyA }));
    expect(got).toMatchObject({ currency: "NOK", name: before.name, status: "active" });
  });

  it("the same currency still updates an account with history", async () => {
    const before = await accountRow(IDS.accountA2);
    if (!before) throw new Error("fixture account missing");
    const res = await h.write("POST", "/accounts", { client, json: upsertOf(before, { name: `EUR ${client}` }) });
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ id: IDS.accountA2, currency: "EUR", name: `EUR ${client}` });
  });

  it("an account without history may change its currency", async () => {
    const fresh = {
      bankId: "DNBANOKK",
      externalRef: client === "fullB" ? "NO1515030000002" : "NO6115030079199",
      currency: "NOK",
      companyId: IDS.companyA,
    };
    const created = await h.write("POST", "/accounts", { client, json: upsertOf(fresh) });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = String((await body(created)).id);
    const changed = await h.write("POST", "/accounts", { client, json: upsertOf(fresh, { currency: "EUR" }) });
    expect(changed.status).toBe(200);
    expect(await body(changed)).toMatchObject({ id, currency: "EUR" });
    expect((await accountRow(id))?.currency).toBe("EUR");
  });
});

describe("account currency: every kind of history counts", () => {
  const ibans = { balance: "NO9715030158382", intraday: "NO3015030237576", coverage: "NO9615030395953" } as const;

  it.each(Object.keys(ibans) as (keyof typeof ibans)[])(
    "an account with only a %s row keeps its currency",
    async (kind) => {
      const a = { bankId: "DNBANOKK", externalRef: ibans[kind], currency: "NOK", companyId: IDS.companyA };
      const created = await h.write("POST", "/accounts", { json: upsertOf(a) });
      expect(created.status, await created.clone().text()).toBe(201);
      const accountId = String((await body(created)).id);
      const base = { id: crypto.randomUUID(), tenantId: IDS.tenant, companyId: IDS.companyA, accountId };
      if (kind === "balance") {
        await h.database.db.insert(s.balanceSnapshots).values({
          ...base,
          balanceType: "closing_booked",
          asOfDate: "2026-01-05",
          balance: "10.00",
          currency: "NOK",
        });
      }
      if (kind === "intraday") {
        const point = {
          timestamp: "2026-01-05T10:00:00Z",
          balance: "10.00",
          currency: "NOK",
          balanceType: "interim_booked",
        };
        await h.database.db.insert(s.intradayPoints).values({ ...base, ...point });
      }
      if (kind === "coverage")
        await h.database.db
          .insert(s.coverageDays)
          .values({ ...base, date: "2026-01-05", source: "camt.053", completeness: "complete" });
      const res = await h.write("POST", "/accounts", { json: upsertOf(a, { currency: "SEK" }) });
      expect(res.status).toBe(409);
      expect((await body(res)).details).toMatchObject({ field: "currency" });
      expect((await accountRow(accountId))?.currency).toBe("NOK");
    },
  );
});

/**
 * Status, body and headers of a response, without the ones that differ per request (request id, rate-limit counters).
 */
async function comparable(res: Response) {
  const headers = [...res.headers.entries()].filter(([k]) => k !== "x-request-id" && !k.startsWith("x-ratelimit-"));
  return { status: res.status, headers, body: await res.text() };
}

describe("refused identities do not reveal whether they exist elsewhere", () => {
  const accountC1 = { bankId: "DABADKKK", externalRef: "DK5000400440116243", currency: "DKK" };

  it(
    "an account identity held by a company the client cannot see answers exactly like a company it may not " + "access",
    async () => {
      // Form B client linked to A and B; company C holds the account.
      const heldByC = upsertOf({ ...accountC1, companyId: IDS.companyA });
      const existsElsewhere = await h.write("POST", "/accounts", { json: heldByC });
      const doesNotExist = await h.write("POST", "/accounts", {
        company: IDS.companyC,
        json: upsertOf({
          bankId: "DABADKKK",
          externalRef: "DK9520000123456789",
          currency: "DKK",
          companyId: IDS.companyC,
        }),
      });
      const a = await comparable(existsElsewhere);
      expect(a.status).toBe(403);
      expect(JSON.parse(a.body)).toEqual({
        error: "permission_denied",
        message: "The company is not accessible to this client",
        details: {},
      });
      expect(a).toEqual(await comparable(doesNotExist));
      const c1 = await accountRow(IDS.accountC1);
      expect(c1).toMatchObject({ companyId: IDS.companyC, currency: "DKK" });
    },
  );

  it(
    "an identity held by another company the client can see stays a 409 that names it (it reveals nothing the " +
      "client cannot read)",
    async () => {
      const a1 = await accountRow(IDS.accountA1);
      if (!a1) throw new Error("fixture account missing");
      for (const client of ["fullB", "partnerA"] as const) {
        const res = await h.write("POST", "/accounts", {
          client,
          company: IDS.companyB,
          json: upsertOf({ ...a1, companyId: IDS.companyB }),
        });
        expect(res.status).toBe(409);
        expect((await body(res)).details).toMatchObject({
          field: "external_ref",
          account_id: IDS.accountA1,
          company_id: IDS.companyA,
        });
      }
      // Form A sees the whole tenant, so company C's account is a visible conflict for it, not a refusal.
      const heldByC = upsertOf({ ...accountC1, companyId: IDS.companyA });
      const res = await h.write("POST", "/accounts", { client: "partnerA", json: heldByC });
      expect(res.status).toBe(409);
    },
  );

  it("an orgnr of a company not linked to the client answers exactly like a company it may not access", async () => {
    const linksBefore = await h.database.db.$count(s.oauthClientCompanies);
    const existsElsewhere = await h.call("POST", "/companies", {
      client: "fullB",
      json: { orgnr: "10150817", name: "Gamma", country: "DK" },
      idem: true,
    });
    const fresh = { orgnr: "31415926", name: "Pi ApS", country: "DK" };
    const doesNotExist = await h.write("POST", "/companies", { company: IDS.companyC, json: fresh });
    const a = await comparable(existsElsewhere);
    expect(a.status).toBe(403);
    expect(a).toEqual(await comparable(doesNotExist));
    const [gamma] = await h.database.db.select().from(s.companies).where(eq(s.companies.id, IDS.companyC));
    expect(gamma).toMatchObject({ name: "Gamma ApS", orgnr: "10150817" });
    expect(await h.database.db.$count(s.oauthClientCompanies)).toBe(linksBefore);
    expect(await h.database.db.$count(s.companies, eq(s.companies.orgnr, "31415926"))).toBe(0);
  });

  it("another tenant's identities do not collide at all", async () => {
    const res = await h.call("POST", "/companies", {
      client: "otherB",
      json: { orgnr: "10150817", name: "Gamma Two", country: "DK" },
      idem: true,
    });
    expect(res.status).toBe(201);
  });
});
