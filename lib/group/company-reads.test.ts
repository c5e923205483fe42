import { describe, expect, it } from "vitest";
import type { Company } from "@treasury/contract";
import { readCompanies } from "./company-reads";

const company = (n: number): Company => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  name: `Company ${n}`,
  orgnr: "123456789",
  country: "NO",
});
const companies = [1, 2, 3, 4, 5].map(company);

describe("readCompanies", () => {
  it("keeps the order of the companies, at most `concurrency` reads at once", async () => {
    let inFlight = 0;
    let peak = 0;
    const r = await readCompanies(
      companies,
      2,
      async (c) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, c.name.endsWith("1") ? 20 : 5));
        inFlight--;
        return [c.name];
      },
      () => [],
    );
    expect(r.results).toEqual(companies.map((c) => [c.name]));
    expect(peak).toBe(2);
    expect(r.failed.size).toBe(0);
    expect(r.failedCompanies).toEqual([]);
  });

  it("puts `empty()` in place of a failed read and names the company with the error's message", async () => {
    const [c1, c2, c3, c4] = companies;
    const r = await readCompanies(
      companies.slice(0, 4),
      4,
      async (c) => {
        if (c === c2) throw new Error("upstream 503");
        if (c === c4) throw "timed out"; // not an Error: its string is the message
        if (c === c3) return Promise.reject(new Error("refused"));
        return { rows: [1] };
      },
      () => ({ rows: [] as number[] }),
    );
    expect(r.results).toEqual([{ rows: [1] }, { rows: [] }, { rows: [] }, { rows: [] }]);
    expect(r.failedCompanies).toEqual([
      { id: c2?.id, name: c2?.name, message: "upstream 503" },
      { id: c3?.id, name: c3?.name, message: "refused" },
      { id: c4?.id, name: c4?.name, message: "timed out" },
    ]);
    expect([...r.failed.keys()].sort()).toEqual([c2?.id, c3?.id, c4?.id].sort());
    expect(r.failed.has(c1?.id ?? "")).toBe(false);
  });

  it("reads nothing for no companies", async () => {
    const r = await readCompanies(
      [],
      4,
      () => Promise.reject(new Error("must not be called")),
      () => 0,
    );
    expect(r).toEqual({ results: [], failed: new Map(), failedCompanies: [] });
  });
});
