/**
 * Ledger and organization endpoints (docs/treasury-api.md#ledger, #organization), table-driven over endpoint ×
 * form × scope, with isolation between companies and tenants, pagination
 * edges, filters and upserts.
 */
import { describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import * as schema from "../../db/schema";
import { CLIENTS, IDS, daysAgo, type ClientKey } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile();

type Json = Record<string, unknown>;
const body = async (res: Response) => (await res.json()) as Json;

/*
 * Other tests in this file add rows (an account of company A, a company linked to the Form B client) and may run
 * first in any order, so the isolation checks compare against the database as it stands when they run, besides
 * naming the fixture's rows that must (and must not) be there.
 */

/** Ids of the companies linked to the Form B client `fullB` right now, sorted. */
async function companiesLinkedToFullB(): Promise<string[]> {
  const links = await h.database.db
    .select({ companyId: schema.oauthClientCompanies.companyId })
    .from(schema.oauthClientCompanies)
    .where(eq(schema.oauthClientCompanies.clientId, CLIENTS.fullB.id));
  return links.map((l) => l.companyId).sort();
}

/** Ids of every account of a company of tenant 1 right now, sorted. */
async function accountsOfTenant1(): Promise<string[]> {
  const cos = await h.database.db
    .select({ id: schema.companies.id })
    .from(schema.companies)
    .where(eq(schema.companies.tenantId, IDS.tenant));
  const rows = await h.database.db
    .select({ id: schema.accounts.id })
    .from(schema.accounts)
    .where(
      inArray(
        schema.accounts.companyId,
        cos.map((c) => c.id),
      ),
    );
  return rows.map((r) => r.id).sort();
}

/** Every read endpoint of Ledger and Organization, with an object of company A (or the tenant). */
const READS: { path: string; companyScoped: boolean; list: boolean }[] = [
  { path: "/accounts", companyScoped: true, list: true },
  { path: `/accounts/${IDS.accountA1}`, companyScoped: true, list: false },
  { path: `/accounts/${IDS.accountA1}/transactions`, companyScoped: true, list: true },
  { path: `/accounts/${IDS.accountA1}/balances`, companyScoped: true, list: true },
  { path: `/accounts/${IDS.accountA1}/coverage`, companyScoped: true, list: true },
  { path: `/accounts/${IDS.accountA1}/intraday`, companyScoped: true, list: true },
  { path: "/transactions", companyScoped: true, list: true },
  { path: "/transactions/60000000-0000-4000-8000-000000000000", companyScoped: true, list: false },
  { path: "/companies", companyScoped: false, list: true },
  { path: `/companies/${IDS.companyA}`, companyScoped: false, list: false },
  { path: "/koncerner", companyScoped: false, list: true },
  { path: `/koncerner/${IDS.koncern}`, companyScoped: false, list: false },
  { path: `/koncerner/${IDS.koncern}/breakdown`, companyScoped: false, list: false },
];

describe.each(READS)("GET $path", ({ path, companyScoped, list }) => {
  it.each([
    ["fullB", "B"],
    ["readB", "B"],
    ["partnerA", "A"],
  ] as [ClientKey, string][])(
    "%s (Form %s) reads it in its form's shape, with and without trailing slash",
    async (client, form) => {
      for (const p of [path, `${path}/`]) {
        const res = await h.call("GET", p, { client, company: IDS.companyA });
        expect(res.status, p).toBe(200);
        const json = (await res.json()) as unknown;
        if (list && form === "A") expect(Array.isArray(json)).toBe(true);
        if (list && form === "B") expect(json).toMatchObject({ page: 1, page_size: 100, previous: null });
        if (!list) expect(Array.isArray(json)).toBe(false);
      }
    },
  );

  it("403 without the read:ledger scope", async () => {
    const res = await h.call("GET", path, { client: "fullB", scope: "read:reporting", company: IDS.companyA });
    expect(res.status).toBe(403);
    expect((await body(res)).error).toBe("permission_denied");
  });

  it("401 without a token", async () => {
    expect((await h.call("GET", path, { company: IDS.companyA })).status).toBe(401);
  });

  it("403 when X-Company-ID names a company not linked to the client", async () => {
    const res = await h.call("GET", path, { client: "fullB", company: IDS.companyC });
    expect(res.status).toBe(403);
  });

  it("400 when X-Company-ID is not a UUID", async () => {
    const res = await h.call("GET", path, { client: "fullB", company: "acme" });
    expect(res.status).toBe(400);
  });

  if (companyScoped) {
    it("Form B without X-Company-ID is 400 naming the header", async () => {
      const res = await h.call("GET", path, { client: "fullB" });
      expect(res.status).toBe(400);
      expect((await body(res)).details).toMatchObject({ errors: { "X-Company-ID": ["is required"] } });
    });
    if (!list) {
      it("an object of another company of the same client is 404 under company B's header", async () => {
        expect((await h.call("GET", path, { client: "fullB", company: IDS.companyB })).status).toBe(404);
      });
    }
  }

  if (!list) {
    it("another tenant's client gets 404, never 403 (no existence leak)", async () => {
      const res = await h.call("GET", path, { client: "otherB", company: IDS.companyD });
      expect(res.status).toBe(404);
      expect((await body(res)).error).toBe("not_found");
    });
  }
});

describe("isolation", () => {
  it("Form B lists only linked companies; Form A sees the whole tenant", async () => {
    const linked = await companiesLinkedToFullB();
    expect(linked).toEqual(expect.arrayContaining([IDS.companyA, IDS.companyB]));
    expect(linked).not.toContain(IDS.companyC);
    const b = (await body(await h.call("GET", "/companies", { client: "fullB" }))) as { results: { id: string }[] };
    expect(b.results.map((c) => c.id).sort()).toEqual(linked);
    const a = (await (await h.call("GET", "/companies", { client: "partnerA" })).json()) as { id: string }[];
    expect(a.map((c) => c.id)).toContain(IDS.companyC);
    expect(a.map((c) => c.id)).not.toContain(IDS.companyD);
  });

  it("the koncern breakdown leaves out companies the client may not see, totals are exact per currency", async () => {
    const b = (await body(await h.call("GET", `/koncerner/${IDS.koncern}/breakdown`, { client: "fullB" }))) as {
      companies: { company_id: string; balances: { currency: string; balance: string }[] }[];
      totals: { currency: string; balance: string }[];
    };
    expect(b.companies.map((c) => c.company_id).sort()).toEqual([IDS.companyA, IDS.companyB]);
    expect(b.totals.map((t) => t.currency)).toEqual(["EUR", "NOK", "SEK"]);
    const a = (await body(await h.call("GET", `/koncerner/${IDS.koncern}/breakdown`, { client: "partnerA" }))) as {
      totals: { currency: string }[];
    };
    expect(a.totals.map((t) => t.currency)).toEqual(["DKK", "EUR", "NOK", "SEK"]);
  });

  it("Form A X-Company-ID narrows to one company; another tenant's company is 403", async () => {
    const narrowed = (await (
      await h.call("GET", "/accounts", { client: "partnerA", company: IDS.companyC })
    ).json()) as { id: string }[];
    expect(narrowed.map((a) => a.id)).toEqual([IDS.accountC1]);
    expect((await h.call("GET", "/accounts", { client: "partnerA", company: IDS.companyD })).status).toBe(403);
    const tenant1 = await accountsOfTenant1();
    expect(tenant1).toEqual(expect.arrayContaining([IDS.accountA1, IDS.accountA2, IDS.accountB1, IDS.accountC1]));
    expect(tenant1).not.toContain(IDS.accountD1);
    const all = (await (await h.call("GET", "/accounts", { client: "partnerA" })).json()) as { id: string }[];
    expect(all.map((a) => a.id).sort()).toEqual(tenant1);
  });

  it("a Form B X-Tenant-ID other than the client's tenant is 403", async () => {
    const res = await h.call("GET", "/accounts", {
      client: "fullB",
      company: IDS.companyA,
      headers: { "x-tenant-id": IDS.tenant2 },
    });
    expect(res.status).toBe(403);
  });
});

describe("transactions lists", () => {
  it("newest booking first, exact count, absolute next/previous links", async () => {
    const res = await h.call("GET", "/transactions?page_size=7&page=2", { client: "fullB", company: IDS.companyA });
    const b = (await body(res)) as {
      count: number;
      total_pages: number;
      next: string;
      previous: string;
      results: { booked_date: string }[];
    };
    expect(b.count).toBe(80);
    expect(b.total_pages).toBe(12);
    expect(new URL(b.next).searchParams.get("page")).toBe("3");
    expect(new URL(b.next).searchParams.get("page_size")).toBe("7");
    expect(b.next.startsWith("http")).toBe(true);
    expect(new URL(b.previous).searchParams.get("page")).toBe("1");
    const dates = b.results.map((r) => r.booked_date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("pages walk the whole set once, without duplicates", async () => {
    const seen = new Set<string>();
    let url: string | null = "/transactions?page_size=30";
    while (url) {
      const b = (await body(await h.call("GET", url, { client: "fullB", company: IDS.companyA }))) as {
        next: string | null;
        results: { id: string }[];
      };
      for (const r of b.results) seen.add(r.id);
      url = b.next ? b.next.replace(/^https?:\/\/[^/]+\/public/, "") : null;
    }
    expect(seen.size).toBe(80);
  });

  it("a page past the end is empty, previous points at the last page", async () => {
    const b = (await body(
      await h.call("GET", "/transactions?page=50", { client: "fullB", company: IDS.companyA }),
    )) as { results: unknown[]; next: null; previous: string };
    expect(b.results).toEqual([]);
    expect(b.next).toBeNull();
    expect(new URL(b.previous).searchParams.get("page")).toBe("1");
  });

  it("filters: direction, account, currency and an inclusive date range; the count follows the filters", async () => {
    const q =
      `/transactions?direction=credit&account_id=${IDS.accountA1}&currency=NOK` +
      `&from_date=${daysAgo(9)}&to_date=${daysAgo(0)}`;
    const b = (await body(await h.call("GET", q, { client: "fullB", company: IDS.companyA }))) as {
      count: number;
      results: { direction: string; booked_date: string; currency: string }[];
    };
    expect(b.results.length).toBe(5);
    expect(b.count).toBe(5);
    expect(
      b.results.every((r) => r.direction === "credit" && r.currency === "NOK" && r.booked_date >= daysAgo(9)),
    ).toBe(true);
  });

  it("amounts are decimal strings with the currency's digits; timestamps ISO 8601 with offset", async () => {
    const b = (await body(
      await h.call("GET", `/transactions/60000000-0000-4000-8000-000000000000`, {
        client: "fullB",
        company: IDS.companyA,
      }),
    )) as Json;
    expect(b).toMatchObject({ amount: "1000.50", currency: "NOK", direction: "credit", end_to_end_id: "E2E-0-00" });
    expect(b.booked_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("Form A takes limit, not page", async () => {
    const rows = (await (await h.call("GET", "/transactions?limit=5", { client: "partnerA" })).json()) as unknown[];
    expect(rows).toHaveLength(5);
    const res = await h.call("GET", "/transactions?page=2", { client: "partnerA" });
    expect(res.status).toBe(400);
    expect((await body(res)).details).toMatchObject({ errors: { page: expect.any(Array) } });
  });

  it.each([
    ["page_size=1001", "page_size"],
    ["page_size=0", "page_size"],
    ["page=0", "page"],
    ["page=abc", "page"],
    ["limit=1001", "limit"],
    ["limit=-1", "limit"],
    ["direction=sideways", "direction"],
    ["currency=nok", "currency"],
    ["currency=XXY", "currency"],
    ["from_date=2026-02-30", "from_date"],
    ["to_date=yesterday", "to_date"],
    ["account_id=123", "account_id"],
    ["sort=amount", "sort"],
    [`from_date=${daysAgo(1)}&to_date=${daysAgo(3)}`, "from_date"],
  ])("?%s is 400 naming %s", async (qs, field) => {
    const res = await h.call("GET", `/transactions?${qs}`, { client: "fullB", company: IDS.companyA });
    expect(res.status).toBe(400);
    const b = (await body(res)) as { error: string; message: string; details: { errors: Record<string, string[]> } };
    expect(b.error).toBe("validation_error");
    expect(Object.keys(b.details.errors)).toContain(field);
    expect(b.message).toContain(field);
  });

  it("page_size=1000 is accepted", async () => {
    expect(
      (await h.call("GET", "/transactions?page_size=1000", { client: "fullB", company: IDS.companyA })).status,
    ).toBe(200);
  });
});

describe("account sub-resources", () => {
  it("balances filter by type and date, oldest first", async () => {
    const b = (await body(
      await h.call("GET", `/accounts/${IDS.accountA1}/balances?balance_type=closing_booked&from_date=${daysAgo(2)}`, {
        client: "fullB",
        company: IDS.companyA,
      }),
    )) as {
      results: { as_of_date: string; balance: string; balance_type: string }[];
    };
    expect(b.results.map((r) => r.as_of_date)).toEqual([daysAgo(2), daysAgo(1), daysAgo(0)]);
    expect(b.results[0]?.balance).toMatch(/^\d+\.\d{2}$/);
    const bad = await h.call("GET", `/accounts/${IDS.accountA1}/balances?balance_type=CLBD`, {
      client: "fullB",
      company: IDS.companyA,
    });
    expect(bad.status).toBe(400);
  });

  it("coverage shows the missing and partial days", async () => {
    const b = (await body(
      await h.call("GET", `/accounts/${IDS.accountA1}/coverage?from_date=${daysAgo(7)}&to_date=${daysAgo(4)}`, {
        client: "fullB",
        company: IDS.companyA,
      }),
    )) as {
      results: { date: string; completeness: string; source: string }[];
    };
    expect(b.results.map((r) => r.completeness)).toEqual(["complete", "partial", "missing", "complete"]);
  });

  it("intraday: one day of 15-minute points; date and a range cannot be combined", async () => {
    const b = (await body(
      await h.call("GET", `/accounts/${IDS.accountA1}/intraday?date=${daysAgo(1)}&page_size=1000`, {
        client: "fullB",
        company: IDS.companyA,
      }),
    )) as { count: number; results: { timestamp: string }[] };
    expect(b.count).toBe(96);
    expect(b.results[1]?.timestamp).toBe(`${daysAgo(1)}T00:15:00.000Z`);
    const none = (await body(
      await h.call("GET", `/accounts/${IDS.accountA1}/intraday?date=${daysAgo(3)}`, {
        client: "fullB",
        company: IDS.companyA,
      }),
    )) as { count: number };
    expect(none.count).toBe(0);
    const bad = await h.call("GET", `/accounts/${IDS.accountA1}/intraday?date=${daysAgo(1)}&from_date=${daysAgo(2)}`, {
      client: "fullB",
      company: IDS.companyA,
    });
    expect(bad.status).toBe(400);
  });

  it("a non-UUID account id is 400 naming id", async () => {
    const res = await h.call("GET", "/accounts/12345/transactions", { client: "fullB", company: IDS.companyA });
    expect(res.status).toBe(400);
    expect((await body(res)).details).toMatchObject({ errors: { id: expect.any(Array) } });
  });
});

describe("account upsert", () => {
  const upsert = {
    company_id: IDS.companyA,
    bank_id: "DNBANOKK",
    external_ref: "NO71 1234 5678 903",
    external_ref_type: "IBAN",
    currency: "NOK",
    status: "active",
  };

  it("201 when created, 200 when updated, never a duplicate", async () => {
    const first = await h.write("POST", "/accounts", { json: upsert });
    expect(first.status).toBe(201);
    const created = await body(first);
    expect(created).toMatchObject({
      currency: "NOK",
      bank_name: "DNB",
      iban_masked: "NO71*******8903",
      company_id: IDS.companyA,
      status: "active",
    });
    const second = await h.write("POST", "/accounts/", { json: { ...upsert, status: "closed", name: "Renamed" } });
    expect(second.status).toBe(200);
    expect(await body(second)).toMatchObject({ id: created.id, status: "closed", name: "Renamed" });
    const list = (await body(
      await h.call("GET", "/accounts?page_size=1000", { client: "fullB", company: IDS.companyA }),
    )) as { results: { id: string }[] };
    expect(list.results.filter((a) => a.id === created.id)).toHaveLength(1);
  });

  it.each([
    ["company_id other than the header", { ...upsert, company_id: IDS.companyB }, "company_id"],
    ["an invalid IBAN", { ...upsert, external_ref: "NO0000000000000" }, "external_ref"],
    ["an unknown external_ref_type", { ...upsert, external_ref_type: "SWIFT" }, "external_ref_type"],
    ["a lower-case currency", { ...upsert, currency: "nok" }, "currency"],
    ["a missing bank_id", { ...upsert, bank_id: undefined }, "bank_id"],
    ["an unknown field", { ...upsert, colour: "blue" }, "colour"],
    ["an unknown status", { ...upsert, status: "frozen" }, "status"],
    ["an over-long name", { ...upsert, name: "x".repeat(141) }, "name"],
  ])("%s is 400 naming %s and changes nothing", async (_n, json, field) => {
    const before = await h.database.db.$count((await import("../../db/schema")).accounts);
    const res = await h.write("POST", "/accounts", { json });
    expect(res.status).toBe(400);
    expect(Object.keys(((await body(res)) as { details: { errors: Json } }).details.errors)).toContain(field);
    expect(await h.database.db.$count((await import("../../db/schema")).accounts)).toBe(before);
  });

  it("an identity owned by another company is 409", async () => {
    const res = await h.write("POST", "/accounts", {
      company: IDS.companyB,
      json: { ...upsert, company_id: IDS.companyB, external_ref: "NO9386011117947" },
    });
    expect(res.status).toBe(409);
  });

  it("a read-only client gets 403; a client whose writes are not approved gets 403", async () => {
    expect((await h.write("POST", "/accounts", { client: "readB", json: upsert })).status).toBe(403);
    await h.database.exec("update oauth_clients set write_approved = false where client_id = 'test-partner-a'");
    try {
      const res = await h.write("POST", "/accounts", { client: "partnerA", json: upsert });
      expect(res.status).toBe(403);
      expect((await body(res)).details).toMatchObject({ reason: "write_not_approved" });
    } finally {
      await h.database.exec("update oauth_clients set write_approved = true where client_id = 'test-partner-a'");
    }
  });
});

describe("company upsert", () => {
  it("201 then 200 on the same orgnr; the new company is linked to the Form B client", async () => {
    const json = { orgnr: "914778271", name: "Nordlys Eiendom AS", country: "NO" };
    const first = await h.call("POST", "/companies", { client: "fullB", json, idem: true });
    expect(first.status).toBe(201);
    const created = await body(first);
    const second = await h.call("POST", "/companies", {
      client: "fullB",
      json: { ...json, name: "Nordlys Eiendom Holding AS" },
      idem: true,
    });
    expect(second.status).toBe(200);
    expect(await body(second)).toMatchObject({ id: created.id, name: "Nordlys Eiendom Holding AS" });
    expect((await h.call("GET", `/companies/${String(created.id)}`, { client: "fullB" })).status).toBe(200);
    // the new company is now usable as X-Company-ID by this client
    expect((await h.call("GET", "/accounts", { client: "fullB", company: String(created.id) })).status).toBe(200);
  });

  it("an orgnr of a company not linked to the client is 403, like any company the client may not access", async () => {
    const res = await h.call("POST", "/companies", {
      client: "fullB",
      json: { orgnr: "10150817", name: "Gamma", country: "DK" },
      idem: true,
    });
    expect(res.status).toBe(403);
  });

  it.each([
    [{ orgnr: "12", name: "X", country: "NO" }, "orgnr"],
    [{ orgnr: "914778271", name: "", country: "NO" }, "name"],
    [{ orgnr: "914778271", name: "X", country: "Norway" }, "country"],
    [{ orgnr: "914778271", name: "X" }, "country"],
  ])("%j is 400 naming %s", async (json, field) => {
    const res = await h.call("POST", "/companies", { client: "fullB", json, idem: true });
    expect(res.status).toBe(400);
    expect(Object.keys(((await body(res)) as { details: { errors: Json } }).details.errors)).toContain(field);
  });
});
