/**
 * ISO 4217 currency codes and their minor units, for rounding converted
 * amounts. The table lists only the codes whose minor unit is not 2 (ISO 4217
 * list one, as amended through 2025); every other well-formed code has 2.
 * Intl's CLDR data is not used here because it differs from ISO 4217 for a
 * few codes the ECB publishes (CLDR gives HUF and IDR 0 digits, ISO 4217 2).
 */

const MINOR_UNITS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Three upper-case letters, the shape of an ISO 4217 alphabetic code. */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

/** True when `code` has the shape of an ISO 4217 code ("NOK"; not "nok", not "NO"). */
export function isCurrencyCode(code: string): boolean {
  return CURRENCY_CODE.test(code);
}

/**
 * Digits after the decimal point of the currency's minor unit (EUR 2, JPY 0, KWD 3).
 * @throws RangeError when `code` is not three upper-case letters.
 */
export function isoMinorUnits(code: string): number {
  if (!isCurrencyCode(code)) throw new RangeError(`not an ISO 4217 currency code: ${JSON.stringify(code)}`);
  return MINOR_UNITS[code] ?? 2;
}
