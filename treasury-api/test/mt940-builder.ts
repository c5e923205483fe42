/**
 * Writes SWIFT MT940 statements and MT942 interim reports for tests, as banks
 * emit them: `buildMt940(doc)` turns plain objects into the file text, with
 * the options the importer must cope with — a SWIFT envelope
 * (`{1:F01BIC…}{2:I940…}{4:` … `-}`), CRLF or LF line ends, German `:86:`
 * structured details (`GVC?00…?20…?32`), the Dutch `/EREF/…/NAME/…/REMI/…`
 * style, `:60M:`/`:62M:` intermediate balances, `:64:`/`:65:` available
 * balances and reversals (RC / RD).
 *
 * Amounts are decimal strings with a point ("1234.50"); the builder writes
 * them with the decimal comma. A balance amount may start with "-" (mark D).
 * Dates are YYYY-MM-DD and become YYMMDD.
 */

export interface MtEntry {
  /** Value date YYYY-MM-DD. */
  value: string;
  /** Booking date YYYY-MM-DD (written as MMDD); omitted: only the value date. */
  booked?: string;
  mark: "C" | "D" | "RC" | "RD";
  amount: string;
  /** Transaction type identification, default NTRF. */
  type?: string;
  customerRef?: string;
  bankRef?: string;
  supplementary?: string;
  /** The `:86:` text as given (use `german86` / `dutch86` to write a structured one). */
  info?: string;
}

export interface MtBalance {
  date: string;
  currency: string;
  /** Decimal string; negative: mark D. */
  amount: string;
}

export interface MtStatement {
  reference?: string;
  /** The `:25:` text, e.g. an IBAN, "50010517/0123456789" or "INGBNL2A/NL…". */
  account: string;
  /** `:28C:`, default "1/1". */
  sequence?: string;
  opening?: MtBalance & { intermediate?: boolean };
  closing?: MtBalance & { intermediate?: boolean };
  closingAvailable?: MtBalance;
  forwardAvailable?: MtBalance[];
  entries: MtEntry[];
  /** Statement-level `:86:` after the closing balance. */
  info?: string;
  // MT942 only:
  /** `:13D:` as YYYY-MM-DDTHH:MM+HH:MM. */
  createdAt?: string;
  /** `:34F:` currency of the floor limit. */
  floorCurrency?: string;
  /** `:90D:` / `:90C:` as given (count and sum); computed from the entries when `sums` is true. */
  sums?: true | { debits: { count: number; amount: string }; credits: { count: number; amount: string } };
}

export interface MtDocument {
  type?: "940" | "942";
  statements: MtStatement[];
  /** Wrap each statement in a SWIFT envelope of this BIC. */
  envelopeBic?: string;
  lineEnd?: "\r\n" | "\n";
}

const yymmdd = (d: string) => d.slice(2, 4) + d.slice(5, 7) + d.slice(8, 10);
const comma = (amount: string) => amount.replace("-", "").replace(".", ",");

function balance(tag: string, b: MtBalance): string {
  return `:${tag}:${b.amount.startsWith("-") ? "D" : "C"}${yymmdd(b.date)}${b.currency}${comma(b.amount)}`;
}

/** Cuts a text into SWIFT lines of at most 65 characters (the first after a 4-character tag). */
function swiftLines(tagged: string): string[] {
  const out: string[] = [];
  let rest = tagged;
  while (rest.length > 65) {
    out.push(rest.slice(0, 65));
    rest = rest.slice(65);
  }
  out.push(rest);
  return out;
}

/** A German structured `:86:` (GVC, posting text, SEPA purpose in ?20–?29, counterparty ?30–?33). */
export function german86(opts: {
  gvc?: string;
  postingText?: string;
  endToEndId?: string;
  purpose: string;
  name?: string;
  bic?: string;
  iban?: string;
}): string {
  const purpose = `${opts.endToEndId ? `EREF+${opts.endToEndId} ` : ""}SVWZ+${opts.purpose}`;
  const chunks: string[] = [];
  for (let i = 0; i < purpose.length && chunks.length < 10; i += 27) chunks.push(purpose.slice(i, i + 27));
  return (
    `${opts.gvc ?? "166"}?00${opts.postingText ?? "SEPA-UEBERWEISUNG"}` +
    chunks.map((c, i) => `?2${i}${c}`).join("") +
    (opts.bic ? `?30${opts.bic}` : "") +
    (opts.iban ? `?31${opts.iban}` : "") +
    (opts.name ? `?32${opts.name.slice(0, 27)}${opts.name.length > 27 ? `?33${opts.name.slice(27, 54)}` : ""}` : "")
  );
}

/** A Dutch (Rabobank / ING) structured `:86:`. */
export function dutch86(opts: { endToEndId?: string; name?: string; iban?: string; remittance?: string }): string {
  return (
    (opts.endToEndId ? `/EREF/${opts.endToEndId}` : "") +
    (opts.iban || opts.name ? `/CNTP/${opts.iban ?? ""}/INGBNL2A/${opts.name ?? ""}/AMSTERDAM` : "") +
    (opts.remittance ? `/REMI/USTD//${opts.remittance}/` : "/")
  );
}

function entryLines(e: MtEntry): string[] {
  const booked = e.booked ? e.booked.slice(5, 7) + e.booked.slice(8, 10) : "";
  const head =
    `:61:${yymmdd(e.value)}${booked}${e.mark}${comma(e.amount)}${e.type ?? "NTRF"}${e.customerRef ?? "NONREF"}` +
    (e.bankRef ? `//${e.bankRef}` : "");
  const lines = [head];
  if (e.supplementary) lines.push(e.supplementary);
  if (e.info !== undefined) lines.push(...swiftLines(`:86:${e.info}`));
  return lines;
}

function sumsOf(s: MtStatement): {
  debits: { count: number; amount: string };
  credits: { count: number; amount: string };
} {
  const side = (credit: boolean) => {
    const es = s.entries.filter((e) => (e.mark === "C" || e.mark === "RD") === credit);
    const cents = es.reduce((t, e) => t + Math.round(Number(e.amount) * 100), 0);
    return { count: es.length, amount: (cents / 100).toFixed(2) };
  };
  return { debits: side(false), credits: side(true) };
}

/** The file text of the document. */
export function buildMt940(doc: MtDocument): string {
  const type = doc.type ?? "940";
  const out: string[] = [];
  doc.statements.forEach((s, i) => {
    const lines: string[] = [];
    lines.push(`:20:${s.reference ?? `STMT${i + 1}`}`, `:25:${s.account}`, `:28C:${s.sequence ?? `${i + 1}/1`}`);
    if (type === "942") {
      lines.push(`:34F:${s.floorCurrency ?? "EUR"}0,`);
      if (s.createdAt) {
        const t = s.createdAt;
        lines.push(
          `:13D:${yymmdd(t.slice(0, 10))}${t.slice(11, 13)}${t.slice(14, 16)}${t.slice(16, 19)}${t.slice(20, 22)}`,
        );
      }
    }
    if (s.opening) lines.push(balance(s.opening.intermediate ? "60M" : "60F", s.opening));
    for (const e of s.entries) lines.push(...entryLines(e));
    if (s.closing) lines.push(balance(s.closing.intermediate ? "62M" : "62F", s.closing));
    if (s.closingAvailable) lines.push(balance("64", s.closingAvailable));
    for (const f of s.forwardAvailable ?? []) lines.push(balance("65", f));
    if (s.sums) {
      const sums = s.sums === true ? sumsOf(s) : s.sums;
      const ccy = s.floorCurrency ?? "EUR";
      lines.push(`:90D:${sums.debits.count}${ccy}${comma(sums.debits.amount)}`);
      lines.push(`:90C:${sums.credits.count}${ccy}${comma(sums.credits.amount)}`);
    }
    if (s.info) lines.push(...swiftLines(`:86:${s.info}`));
    if (doc.envelopeBic) {
      const lt = `${doc.envelopeBic.padEnd(8, "X").slice(0, 8)}A${doc.envelopeBic.slice(8).padEnd(3, "X")}`;
      out.push(`{1:F01${lt}0000000000}{2:I${type}XXXXXXXXXXXXN}{4:`, ...lines, "-}");
    } else out.push(...lines, "-");
  });
  return out.join(doc.lineEnd ?? "\r\n") + (doc.lineEnd ?? "\r\n");
}
