/**
 * Test-only: `POST /statements` uploads through a harness (docs/testing.md), the multipart body a browser's form
 * sends, and the small one-statement camt.053 the upload tests send.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { UPLOAD_FOLDER_PREFIX } from "../lib/multipart-spool";
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

/**
 * Gives the calling test file a temporary directory of its own: `TMPDIR` points at a new folder from its `beforeAll`
 * until its `afterAll`, which restores it and removes the folder. Returns a function that lists the upload folders
 * (`UPLOAD_FOLDER_PREFIX`) left in it, so a test can show that every request removed its own.
 */
export function uploadFoldersForFile(): () => string[] {
  let dir = "";
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.TMPDIR;
    dir = mkdtempSync(path.join(os.tmpdir(), "upload-test-"));
    process.env.TMPDIR = dir;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true });
  });
  return () => readdirSync(dir).filter((n) => n.startsWith(UPLOAD_FOLDER_PREFIX));
}
