/**
 * Nordic organization numbers and IBANs for the demo seed.
 *
 * Organization numbers carry their national check digit:
 * - Norway (Brønnøysundregistrene): 9 digits, mod 11 with weights 3 2 7 6 5 4 3 2.
 * - Sweden (Bolagsverket): `NNNNNN-NNNN`, Luhn over the 10 digits; the third
 *   digit is 2 or higher for legal persons.
 * - Denmark (CVR): 8 digits, weighted sum with 2 7 6 5 4 3 2 1 divisible by 11.
 * - Finland (Y-tunnus): `NNNNNNN-C`, mod 11 with weights 7 9 10 5 8 4 2.
 *
 * IBANs: the BBAN follows each country's format (Norway with its mod-11
 * account check digit, Finland with its Luhn check digit) and ibantools'
 * `composeIBAN` adds the ISO 13616 mod-97 check digits.
 */
import { composeIBAN, isValidIBAN } from "ibantools";
import type { Rng } from "./prng";

export type NordicCountry = "NO" | "SE" | "DK" | "FI";

function weightedSum(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * (weights[i] ?? 0);
  return sum;
}

/** Luhn check digit for a digit string (the digit to append). */
export function luhnCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    // Double every second digit counted from the right end of the body.
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

const NO_ORG_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const;
const DK_CVR_WEIGHTS = [2, 7, 6, 5, 4, 3, 2, 1] as const;
const FI_YTUNNUS_WEIGHTS = [7, 9, 10, 5, 8, 4, 2] as const;
const NO_ACCOUNT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/** Mod-11 check digit as used in Norway: 11 − (sum mod 11), 11 → 0, 10 → none. */
function mod11NorwegianCheck(digits: string, weights: readonly number[]): number | null {
  const r = weightedSum(digits, weights) % 11;
  const c = r === 0 ? 0 : 11 - r;
  return c === 10 ? null : c;
}

/** True when `orgnr` is a well-formed organization number of `country` with a valid check digit. */
export function isValidOrgnr(country: NordicCountry, orgnr: string): boolean {
  switch (country) {
    case "NO":
      return /^\d{9}$/.test(orgnr) && mod11NorwegianCheck(orgnr, NO_ORG_WEIGHTS) === Number(orgnr[8]);
    case "SE": {
      if (!/^\d{6}-\d{4}$/.test(orgnr)) return false;
      const digits = orgnr.replace("-", "");
      return Number(digits[2]) >= 2 && luhnCheckDigit(digits.slice(0, 9)) === Number(digits[9]);
    }
    case "DK":
      return /^[1-9]\d{7}$/.test(orgnr) && weightedSum(orgnr, DK_CVR_WEIGHTS) % 11 === 0;
    case "FI": {
      if (!/^\d{7}-\d$/.test(orgnr)) return false;
      const r = weightedSum(orgnr, FI_YTUNNUS_WEIGHTS) % 11;
      return r !== 1 && (r === 0 ? 0 : 11 - r) === Number(orgnr[8]);
    }
  }
}

/** A random organization number of `country` with a valid check digit. */
export function generateOrgnr(rng: Rng, country: NordicCountry): string {
  for (;;) {
    switch (country) {
      case "NO": {
        // Legal entities registered since 1995 start with 9 (older with 8).
        const body = `9${rng.digits(7)}`;
        const c = mod11NorwegianCheck(body, NO_ORG_WEIGHTS);
        if (c !== null) return `${body}${c}`;
        break;
      }
      case "SE": {
        // 55xxxx: aktiebolag; the third digit ≥ 2 marks a legal person.
        const body = `55${rng.int(6, 9)}${rng.digits(6)}`;
        return `${body.slice(0, 6)}-${body.slice(6)}${luhnCheckDigit(body)}`;
      }
      case "DK": {
        // Choose the last digit so that the weighted sum is divisible by 11.
        const body = `${rng.int(1, 4)}${rng.digits(6)}`;
        const last = (11 - (weightedSum(body, DK_CVR_WEIGHTS.slice(0, 7)) % 11)) % 11;
        if (last <= 9) return `${body}${last}`;
        break;
      }
      case "FI": {
        const body = `${rng.int(1, 3)}${rng.digits(6)}`;
        const r = weightedSum(body, FI_YTUNNUS_WEIGHTS) % 11;
        if (r !== 1) return `${body}-${r === 0 ? 0 : 11 - r}`;
        break;
      }
    }
  }
}

/**
 * A random valid IBAN of `country` at the bank with national bank code
 * `bankCode` (NO 4 digits, SE 3 digits, DK 4 digits, FI 1–6 leading digits).
 * @throws Error if ibantools rejects the composed IBAN (a bug here).
 */
export function generateIban(rng: Rng, country: NordicCountry, bankCode: string): string {
  for (;;) {
    let bban: string | null = null;
    switch (country) {
      case "NO": {
        const body = `${bankCode}${rng.digits(10 - bankCode.length)}`;
        const c = mod11NorwegianCheck(body, NO_ACCOUNT_WEIGHTS);
        if (c !== null) bban = `${body}${c}`;
        break;
      }
      case "SE":
        bban = `${bankCode}${rng.digits(20 - bankCode.length)}`;
        break;
      case "DK":
        bban = `${bankCode}${rng.digits(14 - bankCode.length)}`;
        break;
      case "FI": {
        const body = `${bankCode}${rng.digits(13 - bankCode.length)}`;
        bban = `${body}${luhnCheckDigit(body)}`;
        break;
      }
    }
    if (bban === null) continue;
    const iban = composeIBAN({ countryCode: country, bban });
    if (iban && isValidIBAN(iban)) return iban;
    throw new Error(`generateIban: ibantools rejected ${country} ${bban}`);
  }
}
