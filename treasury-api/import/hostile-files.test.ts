/**
 * Hostile and broken XML through POST /statements (real app, one PGlite database for the file): XXE, billion
 * laughs, deep nesting, too many elements, a wrong namespace → 400 with a clear message and nothing stored; an
 * account of another company of the tenant answers exactly like an impossible account (no existence leak).
 * The guard's own rules are checked on `guardXml` directly as well.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accounts, transactions, webhookEvents } from "../db/schema";

import { IDS } from "../test/harness";
import { harnessForFile } from "../test/file-harness";
import { oneStatementCamt, uploadStatements } from "../test/statement-upload";
import { buildPain002 } from "../test/pain002-builder";
import { checkIsoNamespace, documentNamespace, guardXml } from "./xml-guard";

const h = harnessForFile();

const DAY = "2026-03-02";
const IBAN_A1 = "NO9386011117947";

const statement = (iban = IBAN_A1, id = "S1"): string =>
  oneStatementCamt(DAY, iban, id, [
    { amount: "1", currency: "NOK", direction: "credit", booked: DAY, servicerRef: `R-${id}` },
  ]);

const upload = (files: { name: string; content: string }[]) => uploadStatements(h, files);

async function counts() {
  const [tx] = await h.database.db.select({ n: sql<number>`count(*)::int` }).from(transactions);
  const [acc] = await h.database.db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  const [ev] = await h.database.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents);
  return { tx: tx?.n, acc: acc?.n, ev: ev?.n };
}

/** Uploads a good statement with the hostile file; expects 400 naming the hostile file and nothing stored. */
async function refused(name: string, content: string) {
  const before = await counts();
  const res = await upload([
    { name: "good.xml", content: statement(IBAN_A1, `G-${name}`) },
    { name, content },
  ]);
  expect(res.status, await res.clone().text()).toBe(400);
  const err = (await res.json()) as { error: string; message: string; details: { file: string; reason?: string } };
  expect(err.error).toBe("validation_error");
  expect(err.details.file).toBe(name);
  expect(await counts()).toEqual(before);
  return err;
}

const XXE = `<?xml version="1.0"?>
<!DOCTYPE Document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>&xxe;</MsgId></GrpHdr></BkToCstmrStmt></Document>`;

const LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<Document><BkToCstmrStmt><GrpHdr><MsgId>&lol3;</MsgId></GrpHdr></BkToCstmrStmt></Document>`;

describe("hostile files through POST /statements", () => {
  it("an external entity (XXE) is refused before parsing", async () => {
    const err = await refused("xxe.xml", XXE);
    expect(err.message).toBe(
      "xxe.xml: line 2: a DOCTYPE is refused (no DTDs, entities or external references in bank files); nothing was imported",
    );
    expect(err.details.reason).toBe("doctype");
    expect(err.message).not.toMatch(/root:|passwd:x/);
  });

  it("an entity bomb (billion laughs) is refused", async () => {
    expect((await refused("lol.xml", LAUGHS)).details.reason).toBe("doctype");
    // Without its DOCTYPE the reference alone is refused too.
    const bare = LAUGHS.replace(/<!DOCTYPE[\s\S]*?\]>/, "");
    expect((await refused("lol-bare.xml", bare)).message).toMatch(/the entity reference "&lol3;" is refused/);
  });

  it("deep nesting is refused naming the limit", async () => {
    const deep = `<?xml version="1.0"?><Document>${"<a>".repeat(5000)}x${"</a>".repeat(5000)}</Document>`;
    expect((await refused("deep.xml", deep)).message).toBe(
      "deep.xml: line 1: elements nest deeper than 64 levels; nothing was imported",
    );
  });

  it("a namespace that is not a supported ISO 20022 message is refused, naming it", async () => {
    const wrong = statement(IBAN_A1, "NS").replace(
      "urn:iso:std:iso:20022:tech:xsd:camt.053.001.02",
      "urn:example:not-iso:camt.053",
    );
    const err = await refused("ns.xml", wrong);
    expect(err.message).toMatch(/^ns\.xml: the namespace "urn:example:not-iso:camt\.053" is not a supported ISO 20022/);
    // Another ISO message than the file's root: named too.
    const pain = statement(IBAN_A1, "NS2").replace(
      "urn:iso:std:iso:20022:tech:xsd:camt.053.001.02",
      "urn:iso:std:iso:20022:tech:xsd:pain.001.001.03",
    );
    expect((await refused("pain001.xml", pain)).message).toMatch(/"urn:iso:std:iso:20022:tech:xsd:pain\.001\.001\.03"/);
    // A hostile pain.002 is refused the same way.
    const report = buildPain002({ messageId: "M", originalMessageId: "O", groupStatus: { code: "ACCP" } });
    expect(
      (await refused("p2.xml", report.replace("<Document", '<!DOCTYPE x [<!ENTITY e "e">]><Document'))).details.reason,
    ).toBe("doctype");
  });

  it("an account of another company is refused without saying why (no existence leak)", async () => {
    // Company B's SEK account: the answer never says that it belongs to another company.
    const [other] = await h.database.db.select().from(accounts).where(eq(accounts.id, IDS.accountB1));
    const otherIban = other?.externalRef ?? "";
    const answer = async (iban: string) => {
      const before = await counts();
      const res = await upload([{ name: "acct.xml", content: statement(iban, `A-${iban}`) }]);
      const body = (await res.json()) as { error: string; message: string; details: Record<string, unknown> };
      expect(await counts()).toEqual(before);
      return {
        status: res.status,
        error: body.error,
        message: body.message.replace(iban, "IBAN"),
        details: body.details,
      };
    };
    const a = await answer(otherIban);
    expect(JSON.stringify(a)).not.toMatch(/another company|belongs|tenant/i);
    expect(a.status).toBe(400);
    expect(a.message).toBe(
      "acct.xml: Document/BkToCstmrStmt/Stmt[0]/Acct/Id names account IBAN, which cannot be imported for this company " +
        "(it is not one of the company's accounts and cannot be added as one)",
    );
    // A malformed IBAN (wrong shape) is another refused identity: the status, code, message and details are the
    // same bytes, only the account as the file gives it differs.
    const b = await answer("NO12AB3");
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    // A wrong check digit is NOT refused: published samples (Nordea, UBS) carry such IBANs.
    expect((await upload([{ name: "chk.xml", content: statement("NO9486011117947", "CHK") }])).status).toBe(200);
    // A new valid IBAN is still created for the company (the rule of docs/bank-files.md).
    const fresh = "DE89370400440532013000";
    expect((await upload([{ name: "new.xml", content: statement(fresh, "NEW") }])).status).toBe(200);
    const created = await h.database.db.select().from(accounts).where(eq(accounts.externalRef, fresh));
    expect(created.map((c) => c.companyId)).toEqual([IDS.companyA]);
  });
});

describe("guardXml", () => {
  const ok =
    (xml: string, limits = { maxDepth: 4, maxElements: 5 }) =>
    () =>
      guardXml(xml, "f.xml", limits);

  it("passes comments, CDATA, processing instructions, predefined and character references", () => {
    expect(
      ok('<?xml version="1.0"?><!-- <!DOCTYPE no> --><a b="x>y"><![CDATA[<!ENTITY no>]]>&amp;&#65;&#x42;<c/></a>'),
    ).not.toThrow();
  });

  it("counts elements and depth, self-closing elements included", () => {
    expect(ok("<a><b><c><d/></c></b></a>")).not.toThrow();
    expect(ok("<a><b><c><d><e></e></d></c></b></a>")).toThrow(/nest deeper than 4 levels/);
    expect(ok("<a><b/><b/><b/><b/><b/></a>")).toThrow(/has more than 5 elements/);
  });

  it("refuses an ENTITY declaration and an unknown reference in an attribute", () => {
    expect(ok('<!ENTITY x "y"><a/>')).toThrow(/ENTITY is refused/);
    expect(ok('<a b="&x;"/>')).toThrow(/entity reference "&x;"/);
  });

  it("reads the Document namespace with or without a prefix, and checks it", () => {
    expect(documentNamespace('<ns2:Document xmlns:ns2="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">')).toBe(
      "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08",
    );
    expect(documentNamespace("<Document>")).toBeNull();
    expect(checkIsoNamespace("urn:iso:std:iso:20022:tech:xsd:pain.002.001.10", "f")).toBe("pain.002.001.10");
    expect(checkIsoNamespace(null, "f")).toBeNull();
    expect(() => checkIsoNamespace("urn:iso:std:iso:20022:tech:xsd:camt.053.001.13", "f")).toThrow(
      /camt\.053\.001\.13" is not a supported/,
    );
  });
});
