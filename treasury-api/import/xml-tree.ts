/**
 * Typed access to the object tree that fast-xml-parser builds (used by
 * the camt.053 parser). The parser is configured to keep every
 * value a string (`parseTagValue: false`), so a node is either a string (a
 * text-only element), an object of child elements / `@_` attributes / `#text`,
 * or an array of those when an element repeats. These helpers hide that
 * variance so the statement parser reads like the ISO 20022 element paths.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";

/** One parsed XML element: a string for text-only elements, else an object. */
export type XmlNode = string | { [key: string]: unknown };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  // Amounts and ids must stay exactly as written ("8.850", "0070"): no number parsing.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Some banks prefix the ISO namespace (<ns2:Document>); element names are what matters.
  removeNSPrefix: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // No callback reads the element path: without this the parser builds a path string per element (a third of the
  // parse time of a 20,000-entry camt.053, docs/bank-files.md "Speed").
  jPath: false,
});

/** The result of reading an XML text: the tree, or where it is not well-formed. */
export type XmlReadResult =
  { ok: true; tree: Record<string, unknown> } | { ok: false; line: number; column: number; message: string };

/**
 * Checks that `xml` is well-formed and parses it into a tree. fast-xml-parser's
 * parser is lenient (a truncated file parses into a partial tree), so the
 * validator runs first.
 */
export function readXml(xml: string): XmlReadResult {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { ok: false, line: valid.err.line, column: valid.err.col, message: valid.err.msg };
  const tree: unknown = parser.parse(xml);
  if (!isObject(tree)) return { ok: false, line: 1, column: 1, message: "no root element" };
  return { ok: true, tree };
}

/** True for a plain (non-array) object node. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The child elements named `key` of `node`, always as an array (empty when absent). */
export function children(node: unknown, key: string): XmlNode[] {
  if (!isObject(node)) return [];
  const value = node[key];
  if (value === undefined || value === null) return [];
  const list: unknown[] = Array.isArray(value) ? value : [value];
  return list.filter((v): v is XmlNode => typeof v === "string" || isObject(v));
}

/** The first child element named `key`, or undefined. */
export function child(node: unknown, key: string): XmlNode | undefined {
  return children(node, key)[0];
}

/** Follows a `/`-separated path of first children, e.g. `at(acct, "Id/IBAN")`. */
export function at(node: unknown, path: string): XmlNode | undefined {
  let current: unknown = node;
  for (const key of path.split("/")) {
    current = child(current, key);
    if (current === undefined) return undefined;
  }
  return current as XmlNode;
}

/** The text content of an element (trimmed); null when the element is absent. */
export function textOf(node: XmlNode | undefined): string | null {
  if (node === undefined) return null;
  if (typeof node === "string") return node.trim();
  const text = node["#text"];
  if (typeof text === "string") return text.trim();
  if (typeof text === "number" || typeof text === "boolean") return String(text);
  return "";
}

/** The text at `path` below `node`, or null when absent or empty. */
export function textAt(node: unknown, path: string): string | null {
  const value = textOf(at(node, path));
  return value === null || value === "" ? null : value;
}

/** The value of attribute `name` of an element, or null. */
export function attrOf(node: XmlNode | undefined, name: string): string | null {
  if (!isObject(node)) return null;
  const value = node[`@_${name}`];
  return typeof value === "string" ? value.trim() : null;
}
