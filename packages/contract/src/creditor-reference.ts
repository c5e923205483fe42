/**
 * Structured creditor references, ISO 11649 ("RF" references): `RF`, two
 * check digits, then 1–21 letters or digits (25 characters at most). The
 * check is ISO 7064 mod 97-10, as for an IBAN: move the first four
 * characters to the end, replace each letter by two digits (A = 10 … Z =
 * 35), and the number must leave remainder 1 when divided by 97.
 *
 * No maintained library covers this (ibantools validates IBANs and BICs only;
 * the npm packages for ISO 11649 are small and unmaintained), so the check is
 * written here; it is short and its edges are tested.
 */

/** The reference without spaces, upper case ("rf18 5390 0754 7034" -> "RF18539007547034"). */
export function electronicCreditorReference(raw: string): string {
  return raw.replace(/\s+/g, "").toUpperCase();
}

const SHAPE = /^RF\d{2}[A-Z0-9]{1,21}$/;

/** Remainder mod 97 of the digit string of `s` (letters A–Z as 10–35), computed piecewise (no big numbers). */
function mod97(s: string): number {
  let rest = 0;
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
}

/**
 * Why `raw` is not a valid ISO 11649 creditor reference, or null when it is.
 * Spaces and lower case are accepted (they are removed / upper-cased first).
 */
export function creditorReferenceProblem(raw: string): string | null {
  const ref = electronicCreditorReference(raw);
  if (!ref.startsWith("RF")) return "must start with RF (ISO 11649 creditor reference)";
  if (ref.length > 25) return "must be at most 25 characters (RF, 2 check digits, up to 21 characters)";
  if (!SHAPE.test(ref)) return "must be RF, 2 check digits and 1–21 letters or digits";
  if (ref.slice(2, 4) === "00" || ref.slice(2, 4) === "01")
    return "has invalid check digits (00 and 01 are never used)";
  if (mod97(ref.slice(4) + ref.slice(0, 4)) !== 1) return "has wrong check digits (ISO 11649 mod 97)";
  return null;
}

/** True when `raw` is a valid ISO 11649 creditor reference (spaces and case ignored). */
export function isValidCreditorReference(raw: string): boolean {
  return creditorReferenceProblem(raw) === null;
}

/** A valid creditor reference for `body` (1–21 letters or digits): RF + computed check digits + body. */
export function makeCreditorReference(body: string): string {
  const b = electronicCreditorReference(body);
  const check = 98 - mod97(`${b}RF00`);
  return `RF${String(check).padStart(2, "0")}${b}`;
}
