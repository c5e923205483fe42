/**
 * POST /statements (extension): multipart upload of camt files through the
 * real app — happy path, several files, an element-level error that stores
 * nothing, idempotent replay (a new multipart boundary is the same request),
 * the company header and the scope.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { STATEMENT_MAX_FILE_BYTES, StatementImportResult } from "@treasury/contract/statements";
import { pendingEntries, transactions } from "../../db/schema";
import { buildCamt, type CamtStatement } from "../../test/camt053-builder";
import { multipartBody, oneStatementCamt, uploadFoldersForFile, uploadStatements } from "../../test/statement-upload";
import { IDS } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile();

// This file's own temporary directory: the upload folders left in it are counted (none may be).
const uploadsLeft = uploadFoldersForFile();

const DAY = "2026-03-02";
// Company A's NOK account in the harness fixture.
const IBAN_A1 = "NO9386011117947";

const statement = (id: string, entries: CamtStatement["entries"]): string =>
  oneStatementCamt(DAY, IBAN_A1, id, entries);

const multipart = multipartBody;

/** An upload as fullB for company A (`company: null`: no X-Company-ID). */
const upload = (
  files: { name: string; content: string }[],
  opts: { idem?: string; company?: string | null; client?: "fullB" | "readB" } = {},
) =>
  uploadStatements(h, files, {
    client: opts.client ?? "fullB",
    company: opts.company === null ? undefined : (opts.company ?? IDS.companyA),
    idem: opts.idem ?? true,
  });

const countTx = async () =>
  (
    await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(transactions)
      .where(eq(transactions.accountId, IDS.accountA1))
  )[0]?.n;

describe("POST /statements", () => {
  it("imports one file and answers with the per-file summary of the contract", async () => {
    const res = await upload([
      {
        name: "one.xml",
        content: statement("ONE", [
          { amount: "10", currency: "NOK", direction: "credit", booked: DAY, servicerRef: "R-1" },
        ]),
      },
    ]);
    expect(res.status).toBe(200);
    const body = StatementImportResult.parse(await res.json());
    expect(body.company_id).toBe(IDS.companyA);
    expect(body.files).toEqual([
      {
        file: "one.xml",
        message_type: "camt.053",
        version: "camt.053.001.02",
        statements: 1,
        account_refs: [IBAN_A1],
        accounts_matched: 1,
        accounts_created: 0,
        entries: 1,
        transactions_inserted: 1,
        pending: 0,
        pending_replaced: 0,
        duplicates: 0,
        entries_skipped: 0,
        balances: 1,
        intraday_points: 0,
        coverage_days: 1,
        skipped_codes: {},
      },
    ]);
  });

  it("takes several files in one request, a pending entry included", async () => {
    const res = await upload([
      {
        name: "a.xml",
        content: statement("A", [
          { amount: "1", currency: "NOK", direction: "credit", booked: DAY, servicerRef: "R-A" },
        ]),
      },
      {
        name: "b.xml",
        content: statement("B", [{ amount: "2", currency: "NOK", direction: "debit", value: DAY, servicerRef: "R-B" }]),
      },
    ]);
    expect(res.status).toBe(200);
    const body = StatementImportResult.parse(await res.json());
    expect(body.files.map((f) => [f.file, f.transactions_inserted, f.pending])).toEqual([
      ["a.xml", 1, 0],
      ["b.xml", 0, 1],
    ]);
    expect(
      await h.database.db.select().from(pendingEntries).where(eq(pendingEntries.accountId, IDS.accountA1)),
    ).toHaveLength(1);
  });

  it("a broken file: 400 naming file and element, nothing stored", async () => {
    const before = await countTx();
    const good = statement("G", [
      { amount: "3", currency: "NOK", direction: "credit", booked: DAY, servicerRef: "R-G" },
    ]);
    const res = await upload([
      { name: "good.xml", content: good },
      { name: "bad.xml", content: good.replace("<CdtDbtInd>CRDT</CdtDbtInd>\n", "<CdtDbtInd>X</CdtDbtInd>\n") },
    ]);
    expect(res.status).toBe(400);
    const err = (await res.json()) as { error: string; message: string; details: { file: string; path: string } };
    expect(err.error).toBe("validation_error");
    expect(err.details.file).toBe("bad.xml");
    expect(err.details.path).toMatch(/^Document\/BkToCstmrStmt\/Stmt\[0\]\/(Bal|Ntry)\[0\]\/CdtDbtInd$/);
    expect(err.message).toMatch(
      /^bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/.*CdtDbtInd must be CRDT or DBIT, got "X"$/,
    );
    expect(await countTx()).toBe(before);
  });

  it("stores the files one at a time in one transaction: a malformed third file stores nothing of the first two", async () => {
    const before = await countTx();
    const pendingBefore = (
      await h.database.db.select().from(pendingEntries).where(eq(pendingEntries.accountId, IDS.accountA1))
    ).length;
    const one = statement("T1", [
      { amount: "4", currency: "NOK", direction: "credit", booked: DAY, servicerRef: "R-T1" },
    ]);
    const two = statement("T2", [
      { amount: "5", currency: "NOK", direction: "debit", value: DAY, servicerRef: "R-T2" },
    ]);
    const res = await upload([
      { name: "t1.xml", content: one },
      { name: "t2.xml", content: two },
      { name: "t3.xml", content: one.replace("<CdtDbtInd>CRDT</CdtDbtInd>\n", "<CdtDbtInd>X</CdtDbtInd>\n") },
    ]);
    expect(res.status).toBe(400);
    const err = (await res.json()) as { error: string; details: { file: string } };
    expect(err.error).toBe("validation_error");
    expect(err.details.file).toBe("t3.xml");
    expect(await countTx()).toBe(before);
    expect(
      await h.database.db.select().from(pendingEntries).where(eq(pendingEntries.accountId, IDS.accountA1)),
    ).toHaveLength(pendingBefore);
  });

  it("applies a camt.052 sent after the camt.053 of its day first: the statement books its pending entry", async () => {
    const entry = { amount: "6.50", currency: "NOK", direction: "credit" as const, servicerRef: "R-ORDER" };
    const intraday = buildCamt({
      version: "02",
      message: "camt.052",
      messageId: "ORDER-52",
      createdAt: `${DAY}T12:00:00Z`,
      statements: [
        {
          id: "ORDER-52",
          createdAt: `${DAY}T12:00:00Z`,
          account: { iban: IBAN_A1, currency: "NOK" },
          balances: [],
          entries: [{ ...entry, value: DAY }],
        },
      ],
    });
    const res = await upload([
      { name: "day.053.xml", content: statement("ORDER-53", [{ ...entry, booked: DAY }]) },
      { name: "noon.052.xml", content: intraday },
    ]);
    expect(res.status).toBe(200);
    const body = StatementImportResult.parse(await res.json());
    expect(
      body.files.map((f) => [f.file, f.message_type, f.transactions_inserted, f.pending, f.pending_replaced]),
    ).toEqual([
      ["day.053.xml", "camt.053", 1, 0, 1],
      ["noon.052.xml", "camt.052", 0, 1, 0],
    ]);
    const left = await h.database.db.select().from(pendingEntries).where(eq(pendingEntries.accountId, IDS.accountA1));
    expect(left.filter((p) => p.accountServicerRef === "R-ORDER")).toEqual([]);
  });

  it("replays the stored answer for the same Idempotency-Key and files, with a new boundary", async () => {
    const files = [
      {
        name: "idem.xml",
        content: statement("I", [
          { amount: "4", currency: "NOK", direction: "credit", booked: DAY, servicerRef: "R-I" },
        ]),
      },
    ];
    const key = crypto.randomUUID();
    const first = await upload(files, { idem: key });
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const before = await countTx();
    const again = await upload(files, { idem: key });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect(await countTx()).toBe(before);
    // Other files under the same key: 409.
    const other = await upload(
      files.map((f) => ({ ...f, name: "other.xml" })),
      { idem: key },
    );
    expect(other.status).toBe(409);
  });

  it("needs X-Company-ID, the write:ledger scope, and a multipart body", async () => {
    const files = [{ name: "x.xml", content: statement("X", []) }];
    const noCompany = await upload(files, { company: null });
    expect(noCompany.status).toBe(400);
    expect(
      ((await noCompany.json()) as { details: { errors: Record<string, string[]> } }).details.errors,
    ).toHaveProperty("X-Company-ID");
    const readOnly = await upload(files, { client: "readB" });
    expect(readOnly.status).toBe(403);
    expect(((await readOnly.json()) as { details: { required_scope: string } }).details.required_scope).toBe(
      "write:ledger",
    );
    const json = await h.write("POST", "/statements", {
      json: { files: [] },
    });
    expect(json.status).toBe(415);
    const empty = await h.write("POST", "/statements", {
      headers: { "content-type": "multipart/form-data; boundary=x" },
      body: "--x--\r\n",
    });
    expect(empty.status).toBe(400);
  });

  it("admits a body over the 1 MiB default limit", async () => {
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      amount: "1.00",
      currency: "NOK",
      direction: "credit" as const,
      booked: DAY,
      servicerRef: `BIG-${i}`,
      additionalInfo: "x".repeat(200),
    }));
    const content = statement("BIG", entries);
    expect(content.length).toBeGreaterThan(1_100_000);
    const res = await upload([{ name: "big.xml", content }]);
    expect(res.status).toBe(200);
    expect(StatementImportResult.parse(await res.json()).files[0]?.transactions_inserted).toBe(3000);
  }, 60_000);

  it("a file over the per-file limit: 413 naming the file and the limit, never 500, and nothing stored", async () => {
    const before = await countTx();
    const small = statement("SMALL-OK", [
      { amount: "3.00", currency: "NOK", direction: "credit", booked: DAY, servicerRef: "SMALL-1" },
    ]);
    // The size check runs before any parsing: the bytes need not be a statement.
    const huge = "x".repeat(STATEMENT_MAX_FILE_BYTES + 1);
    const res = await upload([
      { name: "small.xml", content: small },
      { name: "huge.xml", content: huge },
    ]);
    expect(res.status).toBe(413);
    const b = (await res.json()) as { error: string; message: string };
    expect(b.error).toBe("payload_too_large");
    expect(b.message).toContain("huge.xml");
    expect(b.message).toContain(String(STATEMENT_MAX_FILE_BYTES));
    expect(await countTx()).toBe(before);
    expect(uploadsLeft()).toEqual([]);
  }, 60_000);

  it("a body cut off inside a file: 400, nothing stored, no temporary file left; the key answers it again", async () => {
    const before = await countTx();
    const content = statement("CUT", [
      { amount: "4.00", currency: "NOK", direction: "credit", booked: DAY, servicerRef: "CUT-1" },
    ]);
    const { body, type } = await multipart([{ name: "cut.xml", content }]);
    const key = crypto.randomUUID();
    const send = () =>
      h.write("POST", "/statements", { idem: key, headers: { "content-type": type }, body: body.slice(0, 400) });
    const res = await send();
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/Malformed FormData request/);
    expect(await countTx()).toBe(before);
    expect(uploadsLeft()).toEqual([]);
    const again = await send();
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([400, "true"]);
    expect(uploadsLeft()).toEqual([]);
  });

  it("is advertised in the OpenAPI document as a multipart extension", async () => {
    const doc = (await (await h.call("GET", "/openapi.json")).json()) as {
      paths: Record<string, Record<string, { tags: string[]; requestBody: { content: Record<string, unknown> } }>>;
    };
    const op = doc.paths["/statements"]?.post;
    expect(op?.tags).toEqual(["Statements (extension)"]);
    expect(Object.keys(op?.requestBody.content ?? {})).toEqual(["multipart/form-data"]);
  });
});
