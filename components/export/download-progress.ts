/**
 * Reads a streamed CSV download in the browser while reporting progress
 * (a large export takes long enough that the user should see it move). Rows are counted
 * by CRLF line ends — `lib/csv/csv-stream` ends records with CRLF, while a
 * line break inside a quoted field is whatever the data holds (LF), so the
 * count is of records. The total comes from the `X-Total-Count` header when
 * the server knows it.
 */

/** Progress of one download: records received (header excluded), the expected total or null, bytes received. */
export interface DownloadProgress {
  rows: number;
  total: number | null;
  bytes: number;
}

/**
 * Consumes `res.body`, calling `onProgress` after each chunk, and returns the
 * whole file as a Blob.
 * @throws Error when the response has no body or the stream fails midway
 */
export async function readCsvWithProgress(res: Response, onProgress: (p: DownloadProgress) => void): Promise<Blob> {
  if (!res.body) throw new Error("The export returned no data.");
  const totalHeader = res.headers.get("x-total-count");
  const total = totalHeader !== null && /^\d+$/.test(totalHeader) ? Number(totalHeader) : null;
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  let prevCr = false;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    const chunk = r.value;
    parts.push(chunk);
    bytes += chunk.byteLength;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x0a && prevCr) lines++;
      prevCr = b === 0x0d;
    }
    onProgress({ rows: Math.max(lines - 1, 0), total, bytes });
  }
  return new Blob(parts as BlobPart[], { type: "text/csv;charset=utf-8" });
}

/** The file name from a `Content-Disposition` header, or the fallback. */
export function fileNameFrom(res: Response, fallback: string): string {
  const cd = res.headers.get("content-disposition") ?? "";
  const m = /filename="([^"]+)"/.exec(cd);
  return m?.[1] ?? fallback;
}
