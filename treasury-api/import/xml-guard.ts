/**
 * Hostile-file guard for every XML bank file (docs/bank-files.md "Hostile files"). Runs on the raw text BEFORE
 * any XML parser sees it, in one linear pass without building anything:
 *
 * - a DOCTYPE (hence any internal or external entity declaration, the billion-laughs expansion and XXE) is refused;
 * - an `<!ENTITY` outside a DOCTYPE, and a reference to an entity other than the five XML predefined ones
 *   (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`) or a character reference, is refused;
 * - element nesting deeper than `maxDepth` (default 64; ISO 20022 messages nest about 12 deep) is refused;
 * - more than `maxElements` elements (default 4,000,000, more than a 25 MB file of real entries holds) is refused.
 *
 * The namespace check (`checkIsoNamespace`) refuses a `Document` namespace that is not a supported ISO 20022
 * message, naming it.
 */
import { ApiError } from "../lib/errors";

/** Limits of `guardXml`. */
export interface XmlGuardLimits {
  /** Deepest element nesting accepted (the root is depth 1). */
  maxDepth: number;
  /** Most elements accepted in one file. */
  maxElements: number;
}

export const XML_GUARD_LIMITS: Readonly<XmlGuardLimits> = { maxDepth: 64, maxElements: 4_000_000 };

/**
 * A file refused by the guard: a 400 `validation_error` at the HTTP layer (exit 1 on the command line), with
 * `details: { file, path: null, reason }`, reason one of `doctype`, `entity`, `depth`, `elements`, `namespace`.
 */
export class HostileXmlError extends ApiError {
  readonly fileName: string;
  readonly reason: "doctype" | "entity" | "depth" | "elements" | "namespace";

  constructor(fileName: string, reason: HostileXmlError["reason"], problem: string) {
    super("validation_error", `${fileName}: ${problem}; nothing was imported`, { file: fileName, path: null, reason });
    this.name = "HostileXmlError";
    this.fileName = fileName;
    this.reason = reason;
  }
}

const PREDEFINED = new Set(["amp", "lt", "gt", "quot", "apos"]);

/** The 1-based line of offset `i` in `text`. */
function lineAt(text: string, i: number): number {
  let n = 1;
  for (let k = text.indexOf("\n"); k !== -1 && k < i; k = text.indexOf("\n", k + 1)) n += 1;
  return n;
}

/**
 * Checks `xml` against the hostile-file rules of the module doc.
 * @param xml the whole file as text
 * @param fileName named in the error
 * @throws HostileXmlError (400) naming the file, the rule and the line
 */
export function guardXml(xml: string, fileName: string, limits: XmlGuardLimits = XML_GUARD_LIMITS): void {
  let depth = 0;
  let elements = 0;
  const n = xml.length;
  let i = xml.indexOf("<");
  // Entity references in text and attribute values. Calls come with increasing `from`, so the next "&" is searched
  // once for the whole file (searching from each segment would be quadratic on a file without any).
  let amp = xml.indexOf("&");
  const checkEntities = (from: number, to: number) => {
    if (amp !== -1 && amp < from) amp = xml.indexOf("&", from);
    for (; amp !== -1 && amp < to; amp = xml.indexOf("&", amp + 1)) {
      const a = amp;
      const semi = xml.indexOf(";", a);
      const name = semi === -1 || semi - a > 12 ? "" : xml.slice(a + 1, semi);
      if (name.startsWith("#") || PREDEFINED.has(name)) continue;
      throw new HostileXmlError(
        fileName,
        "entity",
        `line ${lineAt(xml, a)}: the entity reference "&${name.slice(0, 20)}${semi === -1 ? "" : ";"}" is refused (only the five XML predefined entities and character references are allowed)`,
      );
    }
  };
  checkEntities(0, i === -1 ? n : i);
  while (i !== -1 && i < n) {
    const next = xml.charCodeAt(i + 1);
    let end: number;
    if (next === 0x21 /* ! */) {
      if (xml.startsWith("<!--", i)) {
        end = xml.indexOf("-->", i + 4);
        end = end === -1 ? n : end + 3;
      } else if (xml.startsWith("<![CDATA[", i)) {
        end = xml.indexOf("]]>", i + 9);
        end = end === -1 ? n : end + 3;
      } else {
        const what = /^<!(DOCTYPE|ENTITY)/i.exec(xml.slice(i, i + 10))?.[1]?.toUpperCase() ?? "declaration";
        throw new HostileXmlError(
          fileName,
          what === "ENTITY" ? "entity" : "doctype",
          `line ${lineAt(xml, i)}: a ${what === "declaration" ? "markup declaration" : what} is refused (no DTDs, entities or external references in bank files)`,
        );
      }
    } else if (next === 0x3f /* ? */) {
      end = xml.indexOf("?>", i + 2);
      end = end === -1 ? n : end + 2;
    } else if (next === 0x2f /* / */) {
      end = xml.indexOf(">", i + 2);
      end = end === -1 ? n : end + 1;
      depth -= 1;
    } else {
      // A start tag: find its end outside attribute quotes.
      let k = i + 1;
      let quote = 0;
      for (; k < n; k++) {
        const c = xml.charCodeAt(k);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === 0x22 || c === 0x27) quote = c;
        else if (c === 0x3e /* > */) break;
      }
      end = k + 1;
      checkEntities(i, k);
      elements += 1;
      if (xml.charCodeAt(k - 1) !== 0x2f /* self-closing */) {
        depth += 1;
        if (depth > limits.maxDepth)
          throw new HostileXmlError(
            fileName,
            "depth",
            `line ${lineAt(xml, i)}: elements nest deeper than ${limits.maxDepth} levels`,
          );
      }
      if (elements > limits.maxElements)
        throw new HostileXmlError(fileName, "elements", `has more than ${limits.maxElements} elements`);
    }
    const following = xml.indexOf("<", end);
    checkEntities(end, following === -1 ? n : following);
    i = following;
  }
}

/** The ISO 20022 messages the import reads, with the versions it supports (inclusive). */
export const SUPPORTED_ISO_MESSAGES: Readonly<Record<string, { min: number; max: number }>> = {
  "camt.052": { min: 2, max: 12 },
  "camt.053": { min: 2, max: 12 },
  "camt.054": { min: 2, max: 12 },
  "pain.002": { min: 3, max: 12 },
};

const ISO_NS = /^urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3})\.001\.(\d{2})$/;

/**
 * Refuses a `Document` namespace that is not a supported ISO 20022 message. A file without a namespace passes
 * (banks omit it; the root element then says what the message is).
 * @param namespace the `xmlns` of the `Document` element, or null when it has none
 * @returns the message and version (`camt.053.001.08`), or null without a namespace
 * @throws HostileXmlError reason `namespace` naming the namespace
 */
export function checkIsoNamespace(namespace: string | null, fileName: string): string | null {
  if (namespace === null || namespace.trim() === "") return null;
  const ns = namespace.trim();
  const m = ISO_NS.exec(ns);
  const range = m?.[1] ? SUPPORTED_ISO_MESSAGES[m[1]] : undefined;
  if (!m || !range || Number(m[2]) < range.min || Number(m[2]) > range.max) {
    const supported = Object.entries(SUPPORTED_ISO_MESSAGES)
      .map(([k, r]) => `${k}.001.${String(r.min).padStart(2, "0")}–${String(r.max).padStart(2, "0")}`)
      .join(", ");
    throw new HostileXmlError(
      fileName,
      "namespace",
      `the namespace "${ns.slice(0, 200)}" is not a supported ISO 20022 message (supported: ${supported})`,
    );
  }
  return `${m[1]}.001.${m[2]}`;
}

/**
 * The namespace URI of the file's `Document` element (default `xmlns` or that of its prefix, e.g. `ns2:Document`),
 * read from the first 64 KiB of the raw text; null when the file has no `Document` or it has no namespace.
 */
export function documentNamespace(xml: string): string | null {
  const head = xml.slice(0, 65_536);
  const m = /<(?:([\w.-]+):)?Document\b([^>]*)>/.exec(head);
  if (!m) return null;
  const prefix = m[1];
  const attrs = m[2] ?? "";
  const name = prefix ? `xmlns:${prefix}` : "xmlns";
  const re = new RegExp(`(?:^|\\s)${name.replace(/[.:-]/g, "\\$&")}\\s*=\\s*("([^"]*)"|'([^']*)')`);
  const a = re.exec(attrs);
  return a ? (a[2] ?? a[3] ?? null) : null;
}
