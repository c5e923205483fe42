import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anchorsOf, checkRepository, codeComments, docsReferences, markdownLinks } from "./check-links";

// Built from parts so that this file's own text cites nothing outside the repository.
const DESIGN = ["DESIGN", "md"].join(".");
const SPEC = ["spec", "§4"].join(" ");

describe("anchorsOf (GitHub slug rules)", () => {
  it("slugs headings as GitHub does: lower case, punctuation dropped, spaces to hyphens, repeats numbered", () => {
    const md = [
      "# Treasury Dashboard",
      "## Payments, approvals and the simulated bank",
      "### `npm run bench:api`",
      "## Single sign-on (OIDC)",
      "## Notes",
      "## Notes",
      "## **Bold** and [a link](x.md) and _stress_",
      '<a id="custom-anchor"></a>',
      "```md",
      "## Not a heading inside a fence",
      "```",
    ].join("\n");
    const anchors = anchorsOf(md);
    expect([...anchors]).toEqual([
      "treasury-dashboard",
      "payments-approvals-and-the-simulated-bank",
      "npm-run-benchapi",
      "single-sign-on-oidc",
      "notes",
      "notes-1",
      "bold-and-a-link-and-stress",
      "custom-anchor",
    ]);
  });
});

describe("markdownLinks", () => {
  it("finds inline links, images, reference definitions and <a href>, not links inside code", () => {
    const md = [
      "See [the API](docs/treasury-api.md#errors) and ![shot](docs/screenshots/overview.png).",
      "[ref]: ./bench/README.md",
      '<a href="docs/testing.md">testing</a>',
      "Not a link: `[x](nowhere.md)`.",
      "```",
      "[y](also-nowhere.md)",
      "```",
      '[title link](docs/a.md "A title")',
    ].join("\n");
    expect(markdownLinks(md)).toEqual([
      { target: "docs/treasury-api.md#errors", line: 1 },
      { target: "docs/screenshots/overview.png", line: 1 },
      { target: "./bench/README.md", line: 2 },
      { target: "docs/testing.md", line: 3 },
      { target: "docs/a.md", line: 8 },
    ]);
  });
});

describe("codeComments and docsReferences", () => {
  it("reads comments only, with their lines, and the docs/ paths they name", () => {
    const src = [
      "/**",
      " * Retry policy (docs/architecture.md#treasury-client-rules).",
      " */",
      'const s = "docs/not-a-comment.md";',
      "// docs/operations.md, and a trailing dot.",
      "const t = 1; // docs/x/y.md#a-b",
      "",
    ].join("\n");
    const comments = codeComments("a.ts", src);
    expect(comments.map((c) => c.line)).toEqual([1, 5, 6]);
    expect(comments.flatMap(docsReferences)).toEqual([
      { target: "docs/architecture.md#treasury-client-rules", line: 2 },
      { target: "docs/operations.md", line: 5 },
      { target: "docs/x/y.md#a-b", line: 6 },
    ]);
  });

  it("reads comments in TSX", () => {
    const src = "export function A() {\n  return <div>{/* docs/guides/webhooks.md */}</div>;\n}\n";
    expect(codeComments("a.tsx", src).flatMap(docsReferences)).toEqual([
      { target: "docs/guides/webhooks.md", line: 2 },
    ]);
  });
});

describe("checkRepository", () => {
  let root: string;
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), text);
  };

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "check-links-"));
    write(
      "README.md",
      "# Repo\n\n[guide](docs/guide.md#the-rules) · [self](#repo) · [web](https://example.com/x.md)\n",
    );
    write("docs/guide.md", "# Guide\n\n## The rules\n\nBack to [the README](../README.md) and [bench](../bench/).\n");
    mkdirSync(path.join(root, "bench"));
    write("lib/good.ts", "/** See docs/guide.md#the-rules. */\nexport const a = 1;\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("passes when every link, anchor and comment reference resolves", () => {
    expect(checkRepository(root, ["README.md", "docs/guide.md", "lib/good.ts"])).toEqual([]);
  });

  it("fails on a missing file, a missing anchor and a link out of the repository", () => {
    write(
      "docs/broken.md",
      "# Broken\n\n[a](missing.md)\n[b](guide.md#no-such-heading)\n[c](#broken)\n[d](../../x.md)\n",
    );
    expect(checkRepository(root, ["docs/broken.md"])).toEqual([
      { file: "docs/broken.md", line: 3, message: "link missing.md: docs/missing.md does not exist" },
      {
        file: "docs/broken.md",
        line: 4,
        message: "link guide.md#no-such-heading: docs/guide.md has no heading #no-such-heading",
      },
      { file: "docs/broken.md", line: 6, message: "link ../../x.md: points outside the repository" },
    ]);
  });

  it("fails on a comment naming a docs/ path or heading that does not exist", () => {
    write("lib/bad.ts", "// docs/nope.md\n/** docs/guide.md#gone */\nexport const b = 2;\n");
    expect(checkRepository(root, ["lib/bad.ts"])).toEqual([
      { file: "lib/bad.ts", line: 1, message: "link docs/nope.md: docs/nope.md does not exist" },
      { file: "lib/bad.ts", line: 2, message: "link docs/guide.md#gone: docs/guide.md has no heading #gone" },
    ]);
  });

  it("fails on a comment citing notes kept outside the repository, not on the same words in a string", () => {
    write("lib/outside.ts", `/**\n * States (${DESIGN}), lists (${SPEC}).\n */\nexport const c = "${DESIGN}";\n`);
    const problems = checkRepository(root, ["lib/outside.ts"]);
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [2, `comment cites "${DESIGN}", which is not in the repository: name the docs/ heading instead`],
    ]);
    write("lib/outside2.ts", `// see ${SPEC}\nexport const d = 1;\n`);
    expect(checkRepository(root, ["lib/outside2.ts"]).map((p) => p.message)).toEqual([
      'comment cites "spec §", which is not in the repository: name the docs/ heading instead',
    ]);
  });
});
