import { describe, expect, it } from "vitest";
import { fileNameFrom, readCsvWithProgress, type DownloadProgress } from "./download-progress";

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

describe("readCsvWithProgress", () => {
  it("counts records across chunk borders (CRLF split between chunks) and ignores LF inside fields", async () => {
    const res = new Response(streamOf(["a,b\r", '\n1,"x\ny"\r\n2,', "z\r\n"]), {
      headers: { "X-Total-Count": "2", "Content-Disposition": 'attachment; filename="t.csv"' },
    });
    const seen: DownloadProgress[] = [];
    const blob = await readCsvWithProgress(res, (p) => seen.push(p));
    expect(await blob.text()).toBe('a,b\r\n1,"x\ny"\r\n2,z\r\n');
    expect(seen.at(-1)).toEqual({ rows: 2, total: 2, bytes: 19 });
    expect(seen[0]?.rows).toBe(0);
    expect(fileNameFrom(res, "f.csv")).toBe("t.csv");
  });

  it("has no total without the header and fails without a body", async () => {
    const seen: DownloadProgress[] = [];
    await readCsvWithProgress(new Response(streamOf(["h\r\n"])), (p) => seen.push(p));
    expect(seen.at(-1)?.total).toBeNull();
    await expect(readCsvWithProgress(new Response(null), () => undefined)).rejects.toThrow();
    expect(fileNameFrom(new Response(null), "f.csv")).toBe("f.csv");
  });
});
