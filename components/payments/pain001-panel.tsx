"use client";

import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { FileDown } from "lucide-react";
import type { PaymentBatch } from "@treasury/contract";
import { PAIN001_STATES, PAIN001_VERSION_LABELS } from "@/lib/iso20022/pain001-states";
import { errorBodyFields, readLenientJson } from "@/lib/http/error-body";
import { endpointUrl } from "@/lib/bff/endpoint";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { paymentQueries } from "./payment-queries";

type Version = keyof typeof PAIN001_VERSION_LABELS;

/** What the last download changed on the way, from the route's X-Pain001-Notes / X-Pain001-Fields headers. */
interface DownloadNotes {
  summary: Record<string, number>;
  fields: string[];
}

function readNotes(res: Response): DownloadNotes {
  const summary: Record<string, number> = {};
  for (const part of (res.headers.get("x-pain001-notes") ?? "").split(";")) {
    const [k, v] = part.trim().split("=");
    if (k && v) summary[k] = Number(v);
  }
  const fields = (res.headers.get("x-pain001-fields") ?? "")
    .split(",")
    .filter(Boolean)
    .map((f) => decodeURIComponent(f));
  return { summary, fields };
}

const KIND_TEXT: Record<string, string> = {
  transliterated: "transliterated to the SEPA Latin character set",
  truncated: "shortened to the schema's maximum length",
  agent_not_provided: "debtor bank sent as NOTPROVIDED (its BIC is not known)",
};

/**
 * The batch's payment file: the account it is paid from and a pain.001
 * download (ISO 20022 Customer Credit Transfer Initiation), offered before
 * submitting (for review) and once approved. After a download it lists the
 * fields that were transliterated or shortened to fit the scheme.
 */
export function Pain001Panel({ companyId, batch }: { companyId: string; batch: PaymentBatch }) {
  const debtor = useQuery(paymentQueries.debtor(companyId, batch.id));
  const [version, setVersion] = useState<Version>("pain.001.001.09");
  const [pending, setPending] = useState(false);
  const [notes, setNotes] = useState<DownloadNotes | null>(null);
  const selectId = useId();
  const allowed = PAIN001_STATES.includes(batch.status);
  const account = debtor.data?.account;

  async function download() {
    setPending(true);
    try {
      const res = await fetch(endpointUrl(paymentsEndpoints.pain001, { id: batch.id }, { version }), {
        credentials: "same-origin",
        headers: { Accept: "application/xml" },
      });
      if (!res.ok)
        throw new Error(errorBodyFields(await readLenientJson(res)).message ?? `The download failed (${res.status}).`);
      const name =
        /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `${version}_${batch.id}.xml`;
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setNotes(readNotes(res));
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The download failed.");
    } finally {
      setPending(false);
    }
  }

  const changed = notes ? Object.entries(notes.summary).filter(([, n]) => n > 0) : [];
  return (
    <section
      aria-labelledby="pain001-h"
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid="pain001-panel"
    >
      <h2 id="pain001-h" className="mb-2 text-sm font-semibold text-slate-900">
        Payment file
      </h2>
      <p className="mb-3 text-[13px] text-slate-600" data-testid="debtor-account">
        {debtor.isPending ? (
          "Finding the account it is paid from…"
        ) : account ? (
          <>
            Paid from <span className="font-medium text-slate-900">{account.name}</span>{" "}
            <span className="font-mono text-xs">{account.iban_masked}</span>, {account.bank_name}
            {batch.debtor_account_id === account.account_id ? (
              ": the account chosen for this batch."
            ) : (
              <>: the company&apos;s first active {account.currency} account by name.</>
            )}
          </>
        ) : debtor.isError ? (
          "The account this batch is paid from could not be read; try again shortly."
        ) : (
          (debtor.data?.reason ?? "No account to pay this batch from is known, so no payment file can be written.")
        )}
      </p>
      {allowed ? (
        <div className="flex flex-wrap items-end gap-2">
          <label htmlFor={selectId} className="flex flex-col gap-1 text-xs text-slate-600">
            Format
            <select
              id={selectId}
              value={version}
              onChange={(e) => setVersion(e.target.value as Version)}
              className={
                "h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px] text-slate-900 " +
                "focus-visible:outline-2 focus-visible:outline-sky-600"
              }
            >
              {Object.entries(PAIN001_VERSION_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <Button onClick={download} pending={pending} disabled={!account} data-testid="download-pain001">
            <FileDown className="size-4" aria-hidden /> Download pain.001
          </Button>
        </div>
      ) : (
        <p className="text-[13px] text-slate-600">
          A pain.001 is offered before the batch is submitted (for review) and again once it is approved.
        </p>
      )}
      {batch.status === "created" && allowed && (
        <p className="mt-2 text-xs text-slate-500">
          Before submitting, the file is for review only: the batch is not approved yet.
        </p>
      )}
      {notes && (
        <div
          role="status"
          className="mt-3 rounded-md bg-slate-50 p-2 text-xs text-slate-700"
          data-testid="pain001-notes"
        >
          {changed.length === 0 ? (
            "Downloaded; every text went into the file as it is."
          ) : (
            <>
              <p>
                Downloaded. {changed.map(([k, n]) => `${n} field${n === 1 ? "" : "s"} ${KIND_TEXT[k] ?? k}`).join("; ")}
                :
              </p>
              <ul className="mt-1 max-h-32 list-disc overflow-auto pl-4 font-mono">
                {notes.fields.map((f) => (
                  <li key={f}>{f.replace(":", " ")}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}
