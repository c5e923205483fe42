/**
 * What the API prints after seeding demo data (issue 28 finding 6): never the demo clients' secrets — on
 * PostgreSQL the fixtures go to a file in the data folder and the log says where; in memory the fixtures are
 * printed with the secrets left out and the log names where they are.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { announceFixtures } from "../server";
import { DEMO_CLIENTS } from "../seed/demo-clients";
import type { DemoFixtures } from "../seed/demo";

const dir = mkdtempSync(path.join(tmpdir(), "demo-announce-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixtures = {
  seed: 1,
  companies: [{ id: "c1", name: "Nordlys Norge AS" }],
  clients: DEMO_CLIENTS.map((c, i) => ({ id: `id-${i}`, client_id: c.clientId, client_secret: c.clientSecret })),
} as unknown as DemoFixtures;

function expectNoSecret(text: string) {
  for (const c of DEMO_CLIENTS) expect(text).not.toContain(c.clientSecret);
  expect(text).not.toMatch(/client_secret/);
}

describe("announceFixtures", () => {
  it("PostgreSQL: writes the fixtures (secrets included) to the data folder and prints only where they are", () => {
    const out = announceFixtures({ databaseUrl: "postgres://u:p@db/treasury", data: dir }, fixtures);
    expectNoSecret(out);
    const file = path.join(dir, "demo-fixtures.json");
    expect(out).toContain(file);
    expect(readFileSync(file, "utf8")).toContain(DEMO_CLIENTS[0]?.clientSecret);
  });

  it("memory: prints the fixtures without the secrets and names where the secrets are", () => {
    const out = announceFixtures({ data: "memory" }, fixtures);
    expectNoSecret(out);
    expect(out).toContain("Nordlys Norge AS");
    expect(out).toContain("treasury-api/seed/demo-clients.ts");
  });

  it("a data folder: the fixtures file, as before", () => {
    const out = announceFixtures({ data: dir }, fixtures);
    expectNoSecret(out);
    expect(out).toContain(path.join(dir, "demo-fixtures.json"));
  });
});
