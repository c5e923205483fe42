/**
 * Lists functions that are too long: React components (a function whose name
 * starts with a capital letter, in a .tsx file) over 150 lines, any other function over 80 lines. Tests, e2e specs,
 * benches and generated files are left out. Lines are counted from the function's first to its last line,
 * comments included.
 *
 * Usage: `npx tsx scripts/function-lengths.ts [--all] [dir ...]` (default: the tracked .ts/.tsx files of the
 * repository). Prints one `lines  kind  path:line  name` row per offender, longest first, and a total; exits 0 (a
 * report, not a gate).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import ts from "typescript";

/** Longest allowed React component, in lines. */
export const COMPONENT_MAX_LINES = 150;
/** Longest allowed other function, in lines. */
export const FUNCTION_MAX_LINES = 80;

export interface FunctionLength {
  path: string;
  /** 1-based line of the function's start. */
  line: number;
  name: string;
  lines: number;
  kind: "component" | "function";
}

const SKIP = /(\.test\.tsx?|\.spec\.tsx?|\.d\.ts)$|(^|\/)(e2e|bench|node_modules|\.next)\//;

/** The name of a function node: its own, or the variable / property / export it is assigned to. */
function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  let p: ts.Node | undefined = node.parent;
  // Wrappers such as memo(...), forwardRef(...), withUser({...}, handler).
  while (p && (ts.isCallExpression(p) || ts.isParenthesizedExpression(p) || ts.isAsExpression(p))) p = p.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) && p.name) return p.name.getText();
  if (p && ts.isExportAssignment(p)) return "default";
  return "(anonymous)";
}

/**
 * Every function of `source` (declarations, arrows, function expressions, methods) longer than its limit.
 * @param path the file's path, used for the rows and to tell components (.tsx) from other functions
 */
export function longFunctions(path: string, source: string, all = false): FunctionLength[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = nameOf(node);
      const kind = path.endsWith(".tsx") && /^[A-Z]/.test(name) ? "component" : "function";
      const lines = end - start + 1;
      if (all || lines > (kind === "component" ? COMPONENT_MAX_LINES : FUNCTION_MAX_LINES))
        out.push({ path, line: start + 1, name, lines, kind });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function main(argv: string[]): void {
  const all = argv.includes("--all");
  const dirs = argv.filter((a) => !a.startsWith("--"));
  const files = execFileSync("git", ["ls-files", "--", ...(dirs.length ? dirs : ["."])], { encoding: "utf8" })
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f) && !SKIP.test(f));
  const rows = files.flatMap((f) => longFunctions(f, readFileSync(f, "utf8"), all));
  rows.sort((a, b) => b.lines - a.lines);
  for (const r of rows)
    console.log(`${String(r.lines).padStart(5)}  ${r.kind.padEnd(9)}  ${r.path}:${r.line}  ${r.name}`);
  const components = rows.filter((r) => r.kind === "component").length;
  console.log(
    `${rows.length} over the limit (${components} components over ${COMPONENT_MAX_LINES} lines, ` +
      `${rows.length - components} other functions over ${FUNCTION_MAX_LINES} lines)`,
  );
}

if (process.argv[1]?.endsWith("function-lengths.ts")) main(process.argv.slice(2));
