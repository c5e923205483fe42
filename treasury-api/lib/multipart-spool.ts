/**
 * Multipart uploads streamed to disk (docs/bank-files.md "Speed and memory"): `POST /statements` takes up to
 * 100 MB of bank files in one request, and holding that body, then a parsed copy of it, in memory is what kept the
 * import's working memory over its 300 MB aim. The idempotency middleware streams a multipart body once: every chunk
 * goes to the request fingerprint (`BoundaryHash`) and to busboy, which writes each file part to its own temporary
 * file. The parsed form holds `File`s backed by those files (`fs.openAsBlob`), read from disk only when the importer
 * reaches them, and the temporary folder is removed when the request ends.
 */
import type { Hash } from "node:crypto";
import { createWriteStream, openAsBlob } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";

/**
 * Hashes a multipart body as it streams, each occurrence of its boundary hashed as the text `BOUNDARY`, so that the
 * same parts sent with another boundary give the same digest. Matches are found left to right without overlap, as in
 * one pass over the whole body: the last `boundary.length - 1` bytes of a chunk wait for the next one, since a
 * boundary may start there.
 */
export class BoundaryHash {
  private carry: Buffer = Buffer.alloc(0);
  private readonly mark: Buffer;

  /** @param hash the digest to feed (already holding what precedes the body) @param boundary the body's boundary */
  constructor(
    private readonly hash: Hash,
    boundary: string,
  ) {
    this.mark = Buffer.from(boundary, "utf8");
  }

  /** Feeds the next bytes of the body. */
  update(chunk: Uint8Array): void {
    const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, view]) : view;
    let from = 0;
    for (let at = bytes.indexOf(this.mark, from); at >= 0; at = bytes.indexOf(this.mark, from)) {
      this.hash.update(bytes.subarray(from, at)).update("BOUNDARY");
      from = at + this.mark.length;
    }
    const safe = Math.max(from, bytes.length - this.mark.length + 1);
    this.hash.update(bytes.subarray(from, safe));
    // A copy: the chunk's memory may be reused by the stream once this returns.
    this.carry = Buffer.from(bytes.subarray(safe));
  }

  /** The hex digest of everything fed so far; the hasher is used up. */
  digest(): string {
    this.hash.update(this.carry);
    this.carry = Buffer.alloc(0);
    return this.hash.digest("hex");
  }
}

/** The name every upload's temporary folder starts with, under the OS's temporary directory. */
export const UPLOAD_FOLDER_PREFIX = "treasury-upload-";

/** A multipart upload parsed into a temporary folder. */
export interface SpooledForm {
  /** The parts in their order: file parts as `File`s read from their temporary files, text parts as strings. */
  form: FormData;
  /** Why the body is not well-formed multipart (the form is then empty); absent when it parsed. */
  parseError?: Error;
  /** Removes the temporary folder (the `File`s cannot be read after). Never throws. */
  dispose(): Promise<void>;
}

/**
 * Streams a multipart/form-data `body` through busboy into a new temporary folder (`UPLOAD_FOLDER_PREFIX` under the
 * OS's temporary directory), one file a part, and hands every chunk to `onChunk` as it arrives. A body that is not
 * well-formed multipart is still read to its end (so `onChunk` sees all of it) and the parse error is returned beside
 * an empty form, for the caller to answer in its own time.
 * @param contentType the request's Content-Type, with its boundary
 * @param maxFileBytes a file part is written up to maxFileBytes + 1 bytes and cut there, so its size shows it was
 *   too large while no more of it reaches the disk
 * @throws when the body cannot be read (the client went away) or the disk refuses a write; the folder is removed
 */
export async function spoolMultipart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
  maxFileBytes: number,
  onChunk: (chunk: Uint8Array) => void,
): Promise<SpooledForm> {
  const dir = await mkdtemp(path.join(os.tmpdir(), UPLOAD_FOLDER_PREFIX));
  const dispose = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
  try {
    const parsed = await parseInto(dir, body, contentType, maxFileBytes, onChunk);
    return { ...parsed, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** `spoolMultipart`'s stream loop: the parts in order, or the parse error after the body was read to its end. */
async function parseInto(
  dir: string,
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
  maxFileBytes: number,
  onChunk: (chunk: Uint8Array) => void,
): Promise<{ form: FormData; parseError?: Error }> {
  const parts: Promise<[string, string | File]>[] = [];
  let parseError: Error | undefined;
  let written = 0;
  const parser = busboy({
    headers: { "content-type": contentType },
    limits: { fileSize: maxFileBytes + 1 },
    defParamCharset: "utf8",
  });
  parser.on("file", (name, stream, info) => {
    const file = path.join(dir, String(written++));
    const part = pipeline(stream, createWriteStream(file)).then(async (): Promise<[string, File]> => [
      name,
      new File([await openAsBlob(file)], info.filename ?? "", { type: info.mimeType }),
    ]);
    part.catch(() => undefined); // awaited below unless the parse failed first
    parts.push(part);
  });
  parser.on("field", (name, value) => parts.push(Promise.resolve([name, value])));
  const ended = new Promise<void>((resolve) => {
    parser.on("close", resolve);
    parser.on("error", (e: Error) => {
      parseError ??= e;
      resolve();
    });
  });
  for await (const chunk of body ? Readable.fromWeb(body as import("node:stream/web").ReadableStream) : []) {
    onChunk(chunk as Uint8Array);
    if (parseError || parser.write(chunk)) continue;
    await new Promise<void>((resolve) => {
      const done = () => {
        parser.off("drain", done);
        parser.off("error", done);
        resolve();
      };
      parser.on("drain", done);
      parser.on("error", done);
    });
  }
  if (!parseError) parser.end();
  await ended;
  if (parseError) return { form: new FormData(), parseError };
  const form = new FormData();
  for (const [name, value] of await Promise.all(parts)) form.append(name, value);
  return { form };
}
