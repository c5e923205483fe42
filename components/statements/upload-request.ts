/**
 * The browser side of a statement upload: a multipart POST to the BFF with
 * XMLHttpRequest, whose upload events report progress (fetch has none for
 * request bodies). Resolves with the per-file summaries; rejects with an
 * `UploadError` carrying the BFF's message and, for a refused file, the file
 * and element the API named.
 */
import type { StatementImportResult } from "@treasury/contract/statements";
import { endpointUrl } from "@/lib/bff/endpoint";
import { ledgerEndpoints } from "@/lib/bff/areas/ledger/endpoints";

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly file: string | null,
    readonly path: string | null,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/**
 * POSTs `files` as parts named `files` to the ledger area's `uploadStatements` endpoint; `onProgress` gets bytes sent of the whole body.
 */
export function uploadStatementFiles(
  files: readonly File[],
  idempotencyKey: string,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<StatementImportResult> {
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(ledgerEndpoints.uploadStatements.method, endpointUrl(ledgerEndpoints.uploadStatements));
    xhr.setRequestHeader("Idempotency-Key", idempotencyKey);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onerror = () =>
      reject(
        new UploadError(
          "The upload did not reach the dashboard. Check the connection and try again.",
          0,
          null,
          null,
          null,
        ),
      );
    xhr.onabort = () => reject(new UploadError("The upload was cancelled.", 0, null, null, null));
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        body = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as unknown as StatementImportResult);
      const details =
        typeof body.details === "object" && body.details !== null ? (body.details as Record<string, unknown>) : {};
      reject(
        new UploadError(
          str(body.message) ?? `The upload failed (${xhr.status}).`,
          xhr.status,
          str(details.file),
          str(details.path),
          str(body.request_id) ?? xhr.getResponseHeader("x-request-id"),
        ),
      );
    };
    signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(form);
  });
}
