/**
 * Validates generated XML against the official ISO 20022 XSDs with Debian's
 * `xmllint` (libxml2-utils). The XSDs are not shipped with the repository:
 * they are read from ISO20022_XSD_DIR (default: a `shared/iso20022` folder
 * beside the clone). `xsdSkipReason()` says why validation cannot run here
 * (no folder, no xmllint), so a suite can skip with one printed line.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The folder with the XSDs (absolute). */
export const XSD_DIR = path.resolve(repoRoot, process.env.ISO20022_XSD_DIR ?? "../shared/iso20022");

const XMLLINT = process.env.XMLLINT ?? "xmllint";

function hasXmllint(): boolean {
  const r = spawnSync(XMLLINT, ["--version"], { encoding: "utf8" });
  return r.error === undefined && r.status === 0;
}

/** Null when validation can run; else the one-line reason to print when skipping. */
export function xsdSkipReason(): string | null {
  if (!existsSync(XSD_DIR))
    return `${XSD_DIR} does not exist; point ISO20022_XSD_DIR at a folder with the official ISO 20022 XSDs`;
  if (!hasXmllint())
    return `${XMLLINT} was not found; install libxml2-utils (apt-get install libxml2-utils) or set XMLLINT`;
  return null;
}

/** The path of the schema of a message version, e.g. `camt.053.001.08`; null when the folder has no such file. */
export function xsdFor(messageVersion: string): string | null {
  const file = path.join(XSD_DIR, `${messageVersion}.xsd`);
  return existsSync(file) ? file : null;
}

/**
 * Validates `xml` against the XSD file.
 * @returns `{ valid: true }` or `{ valid: false, errors }` with xmllint's messages (line and element)
 */
export function validateAgainstXsd(xml: string, xsdFile: string): { valid: boolean; errors: string } {
  const r = spawnSync(XMLLINT, ["--noout", "--nonet", "--schema", xsdFile, "-"], {
    input: xml,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { valid: r.status === 0, errors: r.stderr.trim() };
}
