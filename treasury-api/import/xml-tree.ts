/**
 * Typed access to the object tree of an XML bank file (used by the camt.052/053/054 and pain.002 parsers). The
 * tree is built by a streaming, strictly well-formedness-checking SAX parser (`saxes`, docs/bank-files.md "Speed and
 * memory") in the shape fast-xml-parser gave it before: every value a string, so a node is either a string (a
 * text-only element, trimmed; "" when empty), an object of child elements / `@_` attributes / `#text`, or an array
 * of those when an element repeats. Namespace prefixes are removed from element and attribute names (`xmlns:*`
 * declarations are dropped, `xmlns` is kept). A caller may detach elements as they close (`ReadXmlOptions.detach`):
 * such a subtree is handed to `onDetached` and never attached to its parent, so a statement's entries are mapped
 * one at a time and never held as a tree together. These helpers hide the shape's variance so the parsers read like
 * the ISO 20022 element paths.
 */
import { SaxesParser } from "saxes";

/** One parsed XML element: a string for text-only elements, else an object. */
export type XmlNode = string | { [key: string]: unknown };

/** The result of reading an XML text: the tree, or where it is not well-formed. */
export type XmlReadResult =
  { ok: true; tree: Record<string, unknown> } | { ok: false; line: number; column: number; message: string };

/** Streaming options of `readXml`. */
export interface ReadXmlOptions {
  /**
   * Called when an element opens, with the element names from the root down to it (prefixes removed); true
   * detaches the element: its subtree is built, given to `onDetached` when it closes and not kept in the tree.
   */
  detach?: (names: readonly string[]) => boolean;
  /** Receives each detached subtree; must not throw (record a problem and report it after `readXml` returns). */
  onDetached?: (node: XmlNode, names: readonly string[]) => void;
  /** Called when any element closes, with the names from the root down to it (before it is removed). */
  onClose?: (names: readonly string[]) => void;
}

/** An element being built: its children / attributes so far and its text. */
interface Frame {
  name: string;
  obj: Record<string, unknown> | null;
  text: string;
  detached: boolean;
}

const localName = (name: string): string => {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
};

function addChild(parent: Frame, name: string, value: XmlNode): void {
  parent.obj ??= {};
  const existing = parent.obj[name];
  if (existing === undefined) parent.obj[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent.obj[name] = [existing, value];
}

/** Stops the SAX parser at its first well-formedness error. */
class NotWellFormed extends Error {}

/**
 * Reads `xml` into a tree, checking that it is well-formed (saxes is a conformant, non-validating parser: a
 * truncated file, a stray `&` or an unclosed element is an error with its line and column). Runs in one pass over
 * the text; with `opts.detach`, the detached elements are streamed to `opts.onDetached` instead of kept.
 * @returns the tree (root element name → node), or the first error's line, column and message
 */
export function readXml(xml: string, opts: ReadXmlOptions = {}): XmlReadResult {
  const parser = new SaxesParser({ position: true });
  const root: Frame = { name: "", obj: {}, text: "", detached: false };
  const stack: Frame[] = [root];
  const names: string[] = [];
  let detachedDepth = 0;
  let error: { line: number; column: number; message: string } | null = null;
  parser.on("error", (e) => {
    // saxes prefixes its message with "line:column: "; the position is given separately.
    error ??= { line: parser.line, column: parser.column, message: e.message.replace(/^\d+:\d+: /, "") };
    throw new NotWellFormed();
  });
  parser.on("opentag", (tag) => {
    const name = localName(tag.name);
    names.push(name);
    const detached = detachedDepth === 0 && opts.detach !== undefined && opts.detach(names);
    if (detached || detachedDepth > 0) detachedDepth += 1;
    const frame: Frame = { name, obj: null, text: "", detached };
    for (const [attr, value] of Object.entries(tag.attributes as Record<string, string>)) {
      if (attr.startsWith("xmlns:")) continue;
      frame.obj ??= {};
      frame.obj[`@_${localName(attr)}`] = value;
    }
    stack.push(frame);
  });
  parser.on("text", (text) => {
    const top = stack[stack.length - 1];
    if (top !== undefined && top !== root) top.text += text;
  });
  parser.on("cdata", (text) => {
    const top = stack[stack.length - 1];
    if (top !== undefined && top !== root) top.text += text;
  });
  parser.on("closetag", () => {
    const frame = stack.pop() as Frame;
    const text = frame.text.trim();
    let value: XmlNode;
    if (frame.obj === null) value = text;
    else {
      if (text !== "") frame.obj["#text"] = text;
      value = frame.obj;
    }
    if (frame.detached) opts.onDetached?.(value, names);
    else if (detachedDepth === 0 || detachedDepth > 1) addChild(stack[stack.length - 1] as Frame, frame.name, value);
    if (detachedDepth > 0) detachedDepth -= 1;
    opts.onClose?.(names);
    names.pop();
  });
  try {
    parser.write(xml).close();
  } catch (e) {
    if (!(e instanceof NotWellFormed)) throw e;
  }
  if (error !== null) return { ok: false, ...(error as { line: number; column: number; message: string }) };
  const tree = root.obj ?? {};
  if (Object.keys(tree).length === 0) return { ok: false, line: 1, column: 1, message: "no root element" };
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
