"use client";

import { electronicFormatIBAN, extractIBAN } from "ibantools";

const regions = typeof Intl.DisplayNames === "function" ? new Intl.DisplayNames(["en"], { type: "region" }) : null;

/**
 * The IBAN's country as ibantools reads it, e.g. "NO · Norway",
 * or nothing while too little has been typed to tell.
 */
export function ibanCountry(iban: string): { code: string; name: string; valid: boolean } | null {
  const e = electronicFormatIBAN(iban) ?? "";
  if (e.length < 2 || !/^[A-Z]{2}/.test(e)) return null;
  const x = extractIBAN(e);
  const code = x.countryCode ?? e.slice(0, 2);
  let name = code;
  try {
    name = regions?.of(code) ?? code;
  } catch {
    name = code;
  }
  return { code, name, valid: x.valid };
}

/** A small hint under an IBAN cell: country, and whether the check digits hold. */
export function IbanCountry({ iban }: { iban: string }) {
  const c = ibanCountry(iban);
  if (!c) return null;
  return (
    <span className={`block text-xs ${c.valid ? "text-slate-500" : "text-slate-400"}`} data-testid="iban-country">
      {c.code} · {c.name}
    </span>
  );
}
