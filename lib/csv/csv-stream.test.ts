import { describe, expect, it } from "vitest";
import Papa from "papaparse";
import { csvCell, csvHeaders, csvStream, toCsv, type CsvColumn } from "./csv-stream";

interface Row {
  amount: string;
  currency: string;
  remittance: string;
}
const columns: CsvColumn<Row>[] = [
  { header: "amount", value: (r) => r.amount },
  { header: "currency", value: (r) => r.currency },
  { header: "remittance", value: (r) => r.remittance },
];

async function* rows(n: number, pulled: { count: number }): AsyncGenerator<Row> {
  for (let i = 0; i < n; i++) {
    pulled.count++;
    yield { amount: i % 2 ? `-${i}.50` : `${i}.00`, currency: "NOK", remittance: `Invoice ${i}, "quoted"\nline` };
  }
}

async function readAll(s: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const reader = s.getReader();
  const dec = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    chunks++;
    text += dec.decode(r.value, { stream: true });
  }
  return { text, chunks };
}

describe("csvStream", () => {
  it("streams header and rows in chunks, and papaparse reads back exactly what went in", async () => {
    const pulled = { count: 0 };
    const { text, chunks } = await readAll(csvStream(rows(1234, pulled), columns, { chunkSize: 500 }));
    expect(chunks).toBe(3);
    const parsed = Papa.parse<string[]>(text.trimEnd(), { newline: "\r\n" });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toEqual(["amount", "currency", "remittance"]);
    expect(parsed.data).toHaveLength(1235);
    expect(parsed.data[2]).toEqual(["-1.50", "NOK", 'Invoice 1, "quoted"\nline']);
  });

  it("writes only the header for no rows", async () => {
    const { text } = await readAll(csvStream(rows(0, { count: 0 }), columns));
    expect(text).toBe("amount,currency,remittance\r\n");
  });

  it("escapes formulas in text columns but keeps negative amounts", () => {
    const csv = toCsv([{ amount: "-5.00", currency: "EUR", remittance: '=HYPERLINK("x")' }], columns, false);
    expect(csv).toBe('-5.00,EUR,"\'=HYPERLINK(""x"")"\r\n');
  });

  it("stops pulling from the source when the reader cancels", async () => {
    const pulled = { count: 0 };
    const reader = csvStream(rows(100_000, pulled), columns, { chunkSize: 100 }).getReader();
    await reader.read();
    await reader.cancel();
    expect(pulled.count).toBeLessThanOrEqual(201);
  });

  it("errors the stream when the source fails", async () => {
    async function* failing(): AsyncGenerator<Row> {
      yield { amount: "1", currency: "NOK", remittance: "" };
      throw new Error("upstream 503");
    }
    const seen: unknown[] = [];
    await expect(readAll(csvStream(failing(), columns, { onError: (e) => seen.push(e) }))).rejects.toThrow(
      "upstream 503",
    );
    expect(seen).toHaveLength(1);
  });

  it("builds download headers with a safe file name and the row count", () => {
    expect(csvHeaders("transactions 2026/01.csv", 42)).toMatchObject({
      "Content-Disposition": 'attachment; filename="transactions_2026_01.csv"',
      "X-Total-Count": "42",
    });
    expect(csvHeaders("x.csv", null)["X-Total-Count"]).toBeUndefined();
  });
});

describe("csvCell: one escaping for every text cell of every export (issue 28 finding 4)", () => {
  it("escapes a leading = + - @ tab or CR in any column, marked as text or not; plain numbers stay numbers", () => {
    for (const bad of ["-A1-B2", "=1+1", "+SUM(A1)", "@cmd", "\tx", "\rx", "-", "+", "--1"])
      expect(csvCell(bad), JSON.stringify(bad)).toBe(`'${bad}`);
    for (const plain of ["-12.50", "12.00", "+3", "0", "abc", "a=b", "", "2026-11-27T08:00:00.000Z"])
      expect(csvCell(plain)).toBe(plain);
    expect(csvCell(-3.5)).toBe("-3.5");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("a request id column (not marked as text) is escaped in the CSV text", () => {
    const rows = [{ id: "-A1-B2", amount: "-1.00" }];
    const text = toCsv(
      rows,
      [
        { header: "request_id", value: (r) => r.id },
        { header: "amount", value: (r) => r.amount },
      ],
      true,
    );
    expect(text).toBe("request_id,amount\r\n'-A1-B2,-1.00\r\n");
  });
});
