/**
 * The link checker of `npm run checks` (`tsx scripts/check-links.ts`; docs/testing.md#link-checker).
 *
 * Two kinds of reference must resolve inside the repository:
 *
 * - every relative link of every Markdown file (`[text](path)`, `![alt](path)`, `[ref]: path`, `<a href="path">`),
 *   resolved from the file's folder: the file or folder must exist, and an `#anchor` on a Markdown file (or a bare
 *   `#anchor` in the same file) must be the slug of one of its headings by GitHub's rules (github-slugger, with
 *   `-1`, `-2` … for repeated headings) or an explicit `<a id="…">` / `<a name="…">`;
 * - every `docs/…` path named in a code comment of a `.ts`, `.tsx`, `.js` or `.mjs` file, resolved from the
 *   repository root, with its optional `#anchor` checked the same way.
 *
 * A code comment may not cite the design notes, the style notes or the numbered sections of the interface
 * description kept outside the repository (`OUTSIDE_CITATION` below): a reader of the repository cannot follow them,
 * so such a comment names the docs/ heading that says the same thing. String literals are not comments and are not
 * checked.
 *
 * Exit code 0 when every reference resolves, 1 when any does not (each problem printed as `file:line: message`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";
import ts from "typescript";

/** One reference that does not resolve. `line` is 1-based. */
export interface LinkProblem {
  file: string;
  line: number;
  message: string;
}

/** A link target found in a file, with the 1-based line it is on. */
export interface FoundLink {
  target: string;
  line: number;
}

/** Citations of files outside the repository that a code comment may not make. */
const OUTSIDE_CITATION = /\b(DESIGN\.md|STYLE\.md)\b|\bspec §/;

/** Lines of a Markdown text with fenced code blocks blanked out (line numbers kept). */
function proseLines(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  let fence: string | undefined;
  return lines.map((line) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (m?.[1] && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = undefined;
      return "";
    }
    if (m?.[1]) {
      fence = m[1];
      return "";
    }
    return line;
  });
}

/** A line with its inline code spans removed (so `[a](b)` inside backticks is not a link). */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, "");
}

/** The text GitHub renders for a heading's Markdown (links → their text, code and emphasis marks dropped). */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`/g, "")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, "$1$2")
    .trim();
}

/**
 * The anchors a Markdown document offers: the GitHub slug of every ATX heading (`#` … `######`, outside code
 * fences), repeated headings numbered `-1`, `-2` …, plus every `<a id>` / `<a name>`.
 */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const h = /^ {0,3}#{1,6}(?:\s+(.*))?$/.exec(line);
    if (h) anchors.add(slugger.slug(headingText(h[1] ?? "")));
    for (const a of line.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) if (a[1]) anchors.add(a[1]);
  }
  return anchors;
}

/** Every link target of a Markdown document outside code: inline links and images, reference definitions, `<a href>`. */
export function markdownLinks(markdown: string): FoundLink[] {
  const found: FoundLink[] = [];
  proseLines(markdown).forEach((raw, i) => {
    const line = withoutCodeSpans(raw);
    const add = (target: string | undefined) => {
      if (target) found.push({ target: target.trim(), line: i + 1 });
    };
    // [text](target "title") and ![alt](target); the text may hold one level of brackets.
    for (const m of line.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)) add(m[1]);
    const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (def) add(def[1]);
    for (const m of line.matchAll(/<a\s[^>]*\bhref\s*=\s*["']([^"']+)["']/gi)) add(m[1]);
  });
  return found;
}

/** Comments of a TypeScript / JavaScript source, each with the 1-based line it starts on. */
export function codeComments(fileName: string, text: string): { text: string; line: number }[] {
  const kind = fileName.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : fileName.endsWith(".ts")
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set<number>();
  const out: { text: string; line: number }[] = [];
  const take = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ text: text.slice(r.pos, r.end), line: source.getLineAndCharacterOfPosition(r.pos).line + 1 });
    }
  };
  // Every node and token (getChildren includes punctuation such as a JSX `{`, and the end-of-file token), so
  // each comment is some token's leading or trailing trivia.
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return out.sort((a, b) => a.line - b.line);
}

/** `docs/…` paths (with an optional `#anchor`) named in a comment, each with its 1-based line in the file. */
export function docsReferences(comment: { text: string; line: number }): FoundLink[] {
  const found: FoundLink[] = [];
  comment.text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/(?<![\w./-])docs\/[\w./-]*[\w-](?:#[\w-]+)?/g))
      found.push({ target: m[0], line: comment.line + i });
  });
  return found;
}

/** Reads a repository file, or undefined when it is not there. */
type Reader = (relative: string) => string | undefined;

/**
 * Checks one reference: `target` resolved from `fromDir` (both relative to the repository root, POSIX separators).
 * @returns the problem's message, or undefined when the target resolves
 */
function checkTarget(
  root: string,
  fromFile: string,
  fromDir: string,
  target: string,
  read: Reader,
): string | undefined {
  const hashAt = target.indexOf("#");
  const rawPath = hashAt === -1 ? target : target.slice(0, hashAt);
  const anchor = hashAt === -1 ? undefined : target.slice(hashAt + 1);
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath.replace(/\?.*$/, ""));
  } catch {
    return `link ${target}: not a valid URL path`;
  }
  const relative = decoded === "" ? fromFile : path.posix.normalize(path.posix.join(fromDir, decoded));
  if (relative.startsWith("../") || path.posix.isAbsolute(relative))
    return `link ${target}: points outside the repository`;
  const absolute = path.join(root, relative);
  if (!existsSync(absolute)) return `link ${target}: ${relative} does not exist`;
  if (anchor === undefined || anchor === "") return undefined;
  if (statSync(absolute).isDirectory() || !relative.toLowerCase().endsWith(".md")) return undefined;
  const text = read(relative);
  if (text === undefined) return `link ${target}: ${relative} cannot be read`;
  const anchors = anchorsOf(text);
  if (!anchors.has(anchor) && !anchors.has(anchor.toLowerCase()))
    return `link ${target}: ${relative} has no heading #${anchor}`;
  return undefined;
}

/** True for a link that leaves the repository (a URL with a scheme, or protocol-relative). */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
}

/**
 * Checks the given files of a repository (paths relative to `root`, POSIX separators): Markdown links and the
 * docs/ references and outside citations of code comments.
 * @returns every problem found, in file order; empty when all resolve
 */
export function checkRepository(root: string, files: string[]): LinkProblem[] {
  const cache = new Map<string, string | undefined>();
  const read: Reader = (relative) => {
    if (!cache.has(relative)) {
      try {
        cache.set(relative, readFileSync(path.join(root, relative), "utf8"));
      } catch {
        cache.set(relative, undefined);
      }
    }
    return cache.get(relative);
  };
  const problems: LinkProblem[] = [];
  for (const file of [...files].sort()) {
    const text = read(file);
    if (text === undefined) continue;
    if (/\.md$/i.test(file)) {
      for (const link of markdownLinks(text)) {
        if (isExternal(link.target)) continue;
        const message = checkTarget(root, file, path.posix.dirname(file), link.target, read);
        if (message) problems.push({ file, line: link.line, message });
      }
    } else if (/\.(ts|tsx|js|mjs|cjs)$/.test(file) && (text.includes("docs/") || OUTSIDE_CITATION.test(text))) {
      for (const comment of codeComments(file, text)) {
        for (const ref of docsReferences(comment)) {
          const message = checkTarget(root, file, ".", ref.target, read);
          if (message) problems.push({ file, line: ref.line, message });
        }
        comment.text.split("\n").forEach((line, i) => {
          const m = OUTSIDE_CITATION.exec(line);
          if (m)
            problems.push({
              file,
              line: comment.line + i,
              message: `comment cites "${m[0]}", which is not in the repository: name the docs/ heading instead`,
            });
        });
      }
    }
  }
  return problems;
}

/** The repository's files to check: tracked and new (not ignored) Markdown and code files outside node_modules. */
export function repositoryFiles(root: string): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return out
    .split("\0")
    .filter((f) => f !== "" && !f.split("/").includes("node_modules"))
    .filter((f) => /\.(md|ts|tsx|js|mjs|cjs)$/i.test(f))
    .filter((f) => existsSync(path.join(root, f)));
}

/** Runs the check on the repository this script is in. */
function main(): number {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const files = repositoryFiles(root);
  const problems = checkRepository(root, files);
  for (const p of problems) process.stdout.write(`${p.file}:${p.line}: ${p.message}\n`);
  process.stdout.write(
    problems.length === 0
      ? `links: ${files.length} files checked, every link resolves\n`
      : `links: ${problems.length} problem(s) in ${files.length} files\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());
