/**
 * Parser of the European Central Bank's euro foreign exchange reference rates
 * in XML: the daily `eurofxref-daily.xml`, the 90-day `eurofxref-hist-90d.xml`
 * and the historical `eurofxref-hist.xml` share one shape, a gesmes envelope
 * with nested `Cube` elements:
 *
 *   <gesmes:Envelope ...><Cube>
 *     <Cube time="2026-11-20"><Cube currency="USD" rate="1.1598"/> ...</Cube> ...
 *   </Cube></gesmes:Envelope>
 *
 * Every rate is "1 EUR = rate currency", kept as the published decimal
 * string. Strict: a missing or bad attribute, an empty day, a date or a
 * currency given twice stops the parse with an {@link FxFileError} naming the
 * element (its line and its date), so that a damaged file imports nothing.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { isCurrencyCode } from "./currencies";
import { isIsoDate } from "./dates";
import { FxFileError, isRateString, type FxRateRow, type ParsedFxFile } from "./rate-file";

// Typed `Symbol` (the wrapper) by fast-xml-parser; at run time it is a symbol (or a string where symbols are missing).
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  // Rates stay the strings the ECB wrote ("1.0900"): no number parsing anywhere.
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The ECB files use no entities; not expanding any rules out entity-expansion attacks.
  processEntities: false,
  captureMetaData: true,
  isArray: (name) => name === "Cube",
});

type Node = Record<string | symbol, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Child `Cube` elements; an empty `<Cube/>` parses to "" and becomes an attribute-less node. */
function cubes(node: Node): Node[] {
  const list = node["Cube"];
  if (!Array.isArray(list)) return [];
  return list.map((c: unknown) => (isNode(c) ? c : {}));
}

function attr(node: Node, name: string): string | undefined {
  const v = node[`@_${name}`];
  return typeof v === "string" ? v.trim() : undefined;
}

/** 1-based line of a character offset. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Parses an ECB eurofxref XML text (daily, 90-day or historical).
 * @returns the rates in file order (base "EUR") and the number of dates
 * @throws FxFileError naming the line and element (with its `time`) of the
 *   first problem: not well-formed XML, no gesmes envelope or Cube, a day
 *   without `time` or with a date that is not `YYYY-MM-DD`, a rate element
 *   without `currency` or `rate`, a rate that is not a positive decimal, a day
 *   with no rates, a date or a currency within a day given twice.
 */
export function parseEcbXml(xml: string): ParsedFxFile {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new FxFileError("document", "a DOCTYPE is not allowed in a rate file");
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new FxFileError(`line ${valid.err.line}, column ${valid.err.col}`, `not well-formed XML: ${valid.err.msg}`);
  const tree: unknown = parser.parse(xml);
  const where = (node: Node, label: string) => {
    const meta = node[META];
    const start = isNode(meta) && typeof meta["startIndex"] === "number" ? meta["startIndex"] : undefined;
    return start === undefined ? label : `line ${lineAt(xml, start)}, ${label}`;
  };
  const envelope = isNode(tree) ? tree["Envelope"] : undefined;
  if (!isNode(envelope)) throw new FxFileError("root element", "expected <gesmes:Envelope> (an ECB eurofxref file)");
  const outer = cubes(envelope);
  if (outer.length !== 1 || !outer[0])
    throw new FxFileError(where(envelope, "<gesmes:Envelope>"), `expected one <Cube>, found ${outer.length}`);
  const days = cubes(outer[0]);
  if (days.length === 0) throw new FxFileError(where(outer[0], "<Cube>"), "no <Cube time=...> elements");

  const rates: FxRateRow[] = [];
  const seenDates = new Map<string, Node>(); // the day element, for the error's location only
  days.forEach((day, i) => {
    const time = attr(day, "time");
    if (time === undefined) throw new FxFileError(where(day, `<Cube> #${i + 1} of the days`), "no time attribute");
    const dayLabel = `<Cube time="${time}">`;
    if (!isIsoDate(time)) throw new FxFileError(where(day, dayLabel), "time is not a date YYYY-MM-DD");
    const first = seenDates.get(time);
    if (first) throw new FxFileError(where(day, dayLabel), `date given twice (first at ${where(first, dayLabel)})`);
    seenDates.set(time, day);
    const entries = cubes(day);
    if (entries.length === 0) throw new FxFileError(where(day, dayLabel), "no <Cube currency=... rate=...> elements");
    const seenCurrencies = new Set<string>();
    entries.forEach((entry, j) => {
      const currency = attr(entry, "currency");
      const rate = attr(entry, "rate");
      const label = `${dayLabel} > <Cube${currency === undefined ? ` #${j + 1}` : ` currency="${currency}"`}>`;
      if (currency === undefined) throw new FxFileError(where(entry, label), "no currency attribute");
      if (!isCurrencyCode(currency) || currency === "EUR")
        throw new FxFileError(where(entry, label), "currency is not a three-letter ISO 4217 code other than EUR");
      if (seenCurrencies.has(currency)) throw new FxFileError(where(entry, label), "currency given twice on this date");
      seenCurrencies.add(currency);
      if (rate === undefined) throw new FxFileError(where(entry, label), "no rate attribute");
      if (!isRateString(rate))
        throw new FxFileError(where(entry, label), `rate ${JSON.stringify(rate)} is not a positive decimal number`);
      rates.push({ date: time, base: "EUR", quote: currency, rate });
    });
  });
  return { format: "ecb-xml", rates, dates: seenDates.size };
}
