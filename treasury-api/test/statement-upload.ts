/**
 * Test-only: `POST /statements` uploads through a harness (docs/testing.md), the multipart body a browser's form
 * sends, and the small one-statement camt.053 the upload tests send.
 */
import type { CallOptions, Harness } from "./harness";
import { buildCamt, type CamtStatement } from "./camt053-builder";

/** A bank file of an upload: its name and text. */
export interface UploadFile {
  name: string;
  content: string;
}

/** A multipart body of `files` in the part `files` (encoded by the platform, a fresh boundary each time) and its type. */
export async function multipartBody(files: UploadFile[]): Promise<{ body: string; type: string }> {
  const form = new FormData();
  for (const f of files) form.append("files", new File([f.content], f.name, { type: "application/xml" }));
  const res = new Response(form);
  return { body: await res.text(), type: res.headers.get("content-type") ?? "" };
}

/** `POST /statements` of `files` as `h.write` sends it (fullB, company A, a new key), `opts` adding or overriding. */
export async function uploadStatements(h: Harness, files: UploadFile[], opts: CallOptions = {}): Promise<Response> {
  const { body, type } = await multipartBody(files);
  return h.write("POST", "/statements", { headers: { "content-type": type }, body, ...opts });
}

/**
 * A camt.053.001.02 of one statement `id` (also the message id) for the NOK account `iban`, created at 22:00 UTC of
 * `day`, closing booked 10.00 on `day`, holding `entries`.
 */
export function oneStatementCamt(day: string, iban: string, id: string, entries: CamtStatement["entries"]): string {
  return buildCamt({
    version: "02",
    messageId: id,
    createdAt: `${day}T22:00:00Z`,
    statements: [
      {
        id,
        createdAt: `${day}T22:00:00Z`,
        account: { iban, currency: "NOK" },
        balances: [{ code: "CLBD", amount: "10.00", currency: "NOK", date: day }],
        entries,
      },
    ],
  });
}
