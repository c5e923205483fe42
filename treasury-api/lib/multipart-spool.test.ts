/**
 * The streamed multipart upload (lib/multipart-spool.ts, docs/bank-files.md "Speed and memory"): the boundary hash
 * of a body cut into chunks anywhere equals one pass over the whole body; the parsed parts keep their order, names,
 * bytes and types; an over-long file is cut at the limit + 1; a malformed body is read to its end and reported; the
 * temporary folder is gone after `dispose` and after a body that breaks off.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BoundaryHash, spoolMultipart } from "./multipart-spool";
import { uploadFoldersForFile } from "../test/statement-upload";

/** The whole-body reference: each boundary, left to right without overlap, hashed as `BOUNDARY`. */
function wholeBodyDigest(bytes: Buffer, boundary: string): string {
  const hash = createHash("sha256");
  const mark = Buffer.from(boundary);
  let from = 0;
  for (let at = bytes.indexOf(mark, from); at >= 0; at = bytes.indexOf(mark, from)) {
    hash.update(bytes.subarray(from, at)).update("BOUNDARY");
    from = at + mark.length;
  }
  return hash.update(bytes.subarray(from)).digest("hex");
}

function chunkedDigest(bytes: Buffer, boundary: string, cuts: number[]): string {
  const streamed = new BoundaryHash(createHash("sha256"), boundary);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    streamed.update(bytes.subarray(from, cut));
    from = cut;
  }
  return streamed.digest();
}

/** A multipart body of `files` (the platform's encoder, as a browser sends it) and its content type. */
async function encoded(files: { name: string; bytes: Uint8Array; type?: string }[], fields: [string, string][] = []) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  for (const f of files)
    form.append("files", new File([new Uint8Array(f.bytes)], f.name, { type: f.type ?? "application/xml" }));
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), type: res.headers.get("content-type") ?? "" };
}

/** A web stream of `bytes` in chunks of `size` bytes. */
const streamOf = (bytes: Uint8Array, size = 1000): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
      controller.close();
    },
  });

// This file's own temporary directory: the upload folders left in it are counted (none may be).
const uploadsLeft = uploadFoldersForFile();

describe("BoundaryHash", () => {
  it("gives the whole body's digest for every way of cutting it into chunks, boundaries cut across included", () => {
    const boundary = "----formdata-abc123";
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.xml"\r\n\r\n<a>Å ----formdata-abc12 x</a>\r\n` +
        `--${boundary}\r\n\r\nmore--${boundary}--${boundary}--\r\n`,
      "latin1",
    );
    const expected = wholeBodyDigest(body, boundary);
    for (let cut = 0; cut <= body.length; cut++) expect(chunkedDigest(body, boundary, [cut])).toBe(expected);
    for (let a = 0; a < body.length; a += 7)
      for (let b = a; b < body.length; b += 5) expect(chunkedDigest(body, boundary, [a, b])).toBe(expected);
    expect(
      chunkedDigest(
        body,
        boundary,
        Array.from({ length: body.length }, (_, i) => i),
      ),
    ).toBe(expected);
  });

  it("tells two bodies apart that differ only in bytes a UTF-8 decoder would turn into U+FFFD", () => {
    const one = Buffer.from([0x3c, 0x61, 0x3e, 0xc5, 0x3c]);
    const two = Buffer.from([0x3c, 0x61, 0x3e, 0xd8, 0x3c]);
    expect(chunkedDigest(one, "b", [2])).not.toBe(chunkedDigest(two, "b", [2]));
  });
});

describe("spoolMultipart", () => {
  it("parses the parts in order into files on disk, read only when asked, and removes them on dispose", async () => {
    const latin1 = Buffer.from("<Nm>Ålesund Møbel</Nm>", "latin1");
    const big = new Uint8Array(300_000).fill(0x41);
    const { body, type } = await encoded(
      [
        { name: "første.xml", bytes: latin1 },
        { name: "big.sta", bytes: big, type: "text/plain" },
      ],
      [["note", "a text part"]],
    );
    const seen: number[] = [];
    const upload = await spoolMultipart(streamOf(body, 4096), type, 1_000_000, (c) => seen.push(c.byteLength));
    expect(upload.parseError).toBeUndefined();
    expect(seen.reduce((s, n) => s + n, 0)).toBe(body.length);
    const entries = [...upload.form.entries()];
    expect(entries.map(([k]) => k)).toEqual(["note", "files", "files"]);
    expect(entries[0]?.[1]).toBe("a text part");
    const [first, second] = upload.form.getAll("files") as File[];
    expect([first?.name, first?.type, first?.size]).toEqual(["første.xml", "application/xml", latin1.length]);
    expect(Buffer.from(await (first as File).arrayBuffer())).toEqual(latin1);
    expect([second?.name, second?.type, second?.size]).toEqual(["big.sta", "text/plain", big.length]);
    expect(new Uint8Array(await (second as File).arrayBuffer())).toEqual(big);
    expect(uploadsLeft()).toHaveLength(1);
    await upload.dispose();
    expect(uploadsLeft()).toHaveLength(0);
  });

  it("cuts a file part at the limit + 1 bytes, so its size shows it was too large", async () => {
    const { body, type } = await encoded([{ name: "huge.xml", bytes: new Uint8Array(50_000).fill(0x78) }]);
    const upload = await spoolMultipart(streamOf(body), type, 10_000, () => undefined);
    expect((upload.form.get("files") as File).size).toBe(10_001);
    await upload.dispose();
  });

  it("reads a body cut off inside a file to its end and reports the parse error with an empty form", async () => {
    const { body, type } = await encoded([{ name: "a.xml", bytes: new Uint8Array(20_000).fill(0x61) }]);
    const cut = body.subarray(0, 12_000);
    let seen = 0;
    const upload = await spoolMultipart(streamOf(cut), type, 1_000_000, (c) => (seen += c.byteLength));
    expect(upload.parseError?.message).toMatch(/unexpected end/i);
    expect(seen).toBe(cut.length);
    expect([...upload.form.keys()]).toEqual([]);
    await upload.dispose();
    expect(uploadsLeft()).toHaveLength(0);
  });

  it("throws and leaves no folder when the body breaks off (the client went away)", async () => {
    const { body, type } = await encoded([{ name: "a.xml", bytes: new Uint8Array(20_000).fill(0x61) }]);
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body.subarray(0, 5000));
        controller.error(new Error("socket hang up"));
      },
    });
    await expect(spoolMultipart(broken, type, 1_000_000, () => undefined)).rejects.toThrow("socket hang up");
    expect(uploadsLeft()).toHaveLength(0);
  });
});
