/**
 * Writing ISO 20022 XML (docs/guides/payments-and-approvals.md "The payment file (pain.001)", docs/bank-channels.md
 * "The simulated bank behind a channel"): one fast-xml-parser builder, which escapes every text, and the
 * `<Document>` envelope every message shares. The pain.001 export, the simulated bank's answers and the tests'
 * statement builder all write through it, so their documents are laid out alike.
 */
import { XMLBuilder } from "fast-xml-parser";

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  format: true,
  indentBy: "  ",
  suppressEmptyNode: true,
});

/**
 * An ISO 20022 document as XML text: the declaration (UTF-8), then `<Document>` in the message's namespace
 * (`urn:iso:std:iso:20022:tech:xsd:<message>`) holding `root` with `body` (fast-xml-parser's tree: attributes
 * prefixed `@_`, elements in the order given; an empty element is left out).
 * @param message the message identifier, e.g. `pain.001.001.09`
 * @param root the message's root element, e.g. `CstmrCdtTrfInitn`
 * @param attributes more attributes of `<Document>`, e.g. `{ "@_xmlns:xsi": "…" }`, written after its namespace
 */
export function isoDocument(
  message: string,
  root: string,
  body: Record<string, unknown>,
  attributes: Record<string, string> = {},
): string {
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    Document: { "@_xmlns": `urn:iso:std:iso:20022:tech:xsd:${message}`, ...attributes, [root]: body },
  }) as string;
}
