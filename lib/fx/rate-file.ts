/**
 * What the FX file parsers produce, and how they fail. A parsed file is a
 * list of daily reference rates `1 base = rate quote`, each rate a decimal
 * string exactly as published. A file with any problem is refused whole:
 * {@link FxFileError} names where (a CSV line, an XML element and its date)
 * so that the publisher's file can be checked, and nothing is imported.
 */

/** One daily reference rate: on `date`, 1 `base` = `rate` `quote`. */
export interface FxRateRow {
  /** `YYYY-MM-DD`, the day the rate is published for. */
  date: string;
  /** ISO 4217 code; "EUR" for the ECB's rates. */
  base: string;
  /** ISO 4217 code. */
  quote: string;
  /** A positive decimal string as published, e.g. "1.0921" or "158.38". */
  rate: string;
}

/** The formats understood (detected from the content, not the file name). */
export type FxFileFormat = "ecb-xml" | "ecb-csv";

/** A parsed rate file: its format and its rates (dates in file order). */
export interface ParsedFxFile {
  format: FxFileFormat;
  rates: FxRateRow[];
  /** Number of distinct dates. */
  dates: number;
}

/** A malformed rate file; `location` is e.g. "line 7" or `<Cube time="2026-11-20">`. */
export class FxFileError extends Error {
  readonly code = "fx_file_malformed";
  constructor(
    readonly location: string,
    readonly problem: string,
  ) {
    super(`${location}: ${problem}`);
    this.name = "FxFileError";
  }
}

/** A published rate: digits with an optional fraction, above zero, at most 30 characters ("1.0921"). */
export function isRateString(value: string): boolean {
  return value.length <= 30 && /^\d+(\.\d+)?$/.test(value) && /[1-9]/.test(value);
}
