/**
 * Input rules of counterparties (payees): the fields a person types or a CSV
 * file carries, checked with zod and ibantools. Every error names its field
 * (zod issue paths), so a form or an import report can mark the cell.
 *
 * - `iban`: spaces and lower case accepted; stored in electronic format
 *   (ISO 13616: upper case, no spaces) after the country format and the
 *   mod-97 check digits pass.
 * - `bic`: ISO 9362, 8 or 11 characters; its country (characters 5–6) must be
 *   the IBAN's country, since a mismatch is a typo or a redirected payment.
 * - `country`: ISO 3166-1 alpha-2; defaults to the IBAN's country.
 * - `lei`: ISO 17442, 20 characters with ISO 7064 mod 97-10 check digits.
 */
import { electronicFormatIBAN, extractBIC, getCountrySpecifications, isValidBIC, isValidIBAN } from "ibantools";
import { z } from "zod";

/** Longest name, remittance text (ISO 20022 pain.001 `Nm`, `Ustrd`). */
export const MAX_TEXT = 140;

/** The IBAN in electronic format, or null when `raw` is not a valid IBAN. */
export function normaliseIban(raw: string): string | null {
  const e = electronicFormatIBAN(raw.trim());
  return e && isValidIBAN(e) ? e : null;
}

/**
 * The comparison key of an IBAN: electronic format when it parses, else the
 * input without spaces / separators in upper case (so that a historic record
 * with a bad checksum still compares equal to itself written differently).
 */
export function ibanKey(raw: string): string {
  return electronicFormatIBAN(raw.trim()) ?? raw.replaceAll(/[\s-]+/g, "").toUpperCase();
}

/** True when `lei` is 20 characters with valid ISO 7064 mod 97-10 check digits. */
export function isValidLei(lei: string): boolean {
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(lei)) return false;
  let rem = 0;
  for (const ch of lei) {
    const v = parseInt(ch, 36); // 0-9 → 0-9, A-Z → 10-35 (ISO 7064 letter values)
    rem = v > 9 ? (rem * 100 + v) % 97 : (rem * 10 + v) % 97;
  }
  return rem === 1;
}

const COUNTRIES = new Set(Object.keys(getCountrySpecifications()));

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, { message })
    .optional()
    .nullable()
    .transform((s) => (s ? s : null));

const Iban = z
  .string({ message: "is required" })
  .trim()
  .min(1, { message: "is required" })
  .max(42, { message: "must be at most 34 characters" })
  .transform((s, ctx) => {
    const n = normaliseIban(s);
    if (!n) {
      ctx.addIssue({ code: "custom", message: "is not a valid IBAN (country format or check digits)" });
      return z.NEVER;
    }
    return n;
  });

const Bic = z
  .string()
  .trim()
  .optional()
  .nullable()
  .transform((s, ctx) => {
    if (!s) return null;
    const b = s.replaceAll(" ", "").toUpperCase();
    if (!isValidBIC(b)) {
      ctx.addIssue({ code: "custom", message: "is not a valid BIC (8 or 11 characters, ISO 9362)" });
      return z.NEVER;
    }
    return b;
  });

function checkBicCountry(v: { iban: string; bic: string | null }, ctx: z.RefinementCtx): void {
  if (!v.bic) return;
  const bicCountry = extractBIC(v.bic).countryCode;
  const ibanCountry = v.iban.slice(0, 2);
  if (bicCountry !== ibanCountry)
    ctx.addIssue({
      code: "custom",
      path: ["bic"],
      message: `is a bank in ${bicCountry ?? "another country"}, but the IBAN is in ${ibanCountry}`,
    });
}

/** The bank details: IBAN and optional BIC, the BIC's country checked against the IBAN's. */
export const BankDetails = z.object({ iban: Iban, bic: Bic }).superRefine(checkBicCountry);
export type BankDetailsInput = z.input<typeof BankDetails>;

/** A new counterparty as a person or a CSV line gives it. */
export const CounterpartyInput = z
  .object({
    name: z
      .string({ message: "is required" })
      .trim()
      .min(1, { message: "is required" })
      .max(MAX_TEXT, { message: `must be at most ${MAX_TEXT} characters` }),
    iban: Iban,
    bic: Bic,
    country: z
      .string()
      .trim()
      .optional()
      .nullable()
      .transform((s) => (s ? s.toUpperCase() : null))
      .refine((s) => s === null || COUNTRIES.has(s), { message: "must be a two-letter ISO 3166 country code" }),
    lei: z
      .string()
      .trim()
      .optional()
      .nullable()
      .transform((s) => (s ? s.toUpperCase() : null))
      .refine((s) => s === null || isValidLei(s), {
        message: "is not a valid LEI (20 characters, ISO 17442 check digits)",
      }),
    orgnr: optionalText(40, "must be at most 40 characters").refine(
      (s) => s === null || /^[\p{L}\p{N} .\-/]+$/u.test(s),
      {
        message: "may hold letters, digits, spaces, '.', '-' and '/' only",
      },
    ),
    defaultRemittance: optionalText(MAX_TEXT, `must be at most ${MAX_TEXT} characters`),
  })
  .superRefine(checkBicCountry)
  .transform((v) => ({ ...v, country: v.country ?? v.iban.slice(0, 2) }));
export type CounterpartyInput = z.input<typeof CounterpartyInput>;
export type CounterpartyFields = z.output<typeof CounterpartyInput>;

/** Why someone changes, verifies, rejects or disables a counterparty (kept in the history and the audit log). */
export const Reason = z
  .string({ message: "is required" })
  .trim()
  .min(3, { message: "must say why (at least 3 characters)" })
  .max(500, { message: "must be at most 500 characters" });
