// ESLint flat config (the ESLint CLI; `next lint` is gone in Next 16).
import js from "@eslint/js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import tseslint from "typescript-eslint";

const ROOT = path.dirname(fileURLToPath(import.meta.url));

const SOURCE = "{ts,tsx,mts,js,mjs}";

/** The workspace package a repository file belongs to (the dashboard is the repository root). */
function packageOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep).join("/");
  if (rel.startsWith("treasury-api/")) return "@treasury/api";
  const m = /^packages\/([^/]+)\//.exec(rel);
  return m ? `@treasury/${m[1]}` : "dashboard";
}

/** The dashboard's own code and tests (not bench/ and scripts/, which launch and measure the API). */
function isDashboardCode(file) {
  return /^((app|components|lib|e2e)\/|[^/]+$)/.test(path.relative(ROOT, file).split(path.sep).join("/"));
}

/**
 * The boundary between the workspace packages (root package.json `workspaces`):
 * - a relative import stays inside its own package; another package is imported by its name
 *   (`@treasury/contract/...`), and the dashboard's `@/` alias is the dashboard's only;
 * - the dashboard's code reaches the local Treasury API over HTTP and never imports `@treasury/api` (its tests start
 *   the API through `@treasury/test-support`);
 * - `@treasury/contract`, shared by both sides of the wire, imports no other package of this repository.
 */
const boundaries = {
  rules: {
    "package-boundaries": {
      meta: { type: "problem", schema: [] },
      create(context) {
        const file = context.filename;
        const own = packageOf(file);
        function check(node) {
          const source = node.source;
          if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
          const spec = source.value;
          if (/^@treasury\/api(\/|$)/.test(spec) && own === "dashboard" && isDashboardCode(file)) {
            context.report({
              node: source,
              message:
                "The dashboard does not import @treasury/api: it calls the API over HTTP (tests: @treasury/test-support).",
            });
          } else if (/^@treasury\//.test(spec) && own === "@treasury/contract") {
            context.report({
              node: source,
              message: "@treasury/contract imports no other package of this repository.",
            });
          } else if (spec.startsWith("@/") && own !== "dashboard") {
            context.report({ node: source, message: `${own} does not use the dashboard's "@/" alias.` });
          } else if (spec.startsWith(".")) {
            const target = packageOf(path.resolve(path.dirname(file), spec));
            if (target !== own) {
              context.report({
                node: source,
                message:
                  target === "dashboard"
                    ? `A relative import leaves ${own} for the dashboard's code, which no package imports.`
                    : `A relative import leaves ${own}: import "${target}/..." by its package name.`,
              });
            }
          }
        }
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "scratch/**",
      ".next/**",
      ".data/**",
      "coverage/**",
      "next-env.d.ts",
      "treasury-api/db/migrations/**",
      "playwright-report/**",
      "test-results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/ban-ts-comment": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Keeps these out of every page's first-load JS (bench:ui budget): sonner is imported on demand by
    // components/ui/toast(er), next-auth's browser client only by the sign-in page.
    files: ["components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}"],
    ignores: ["components/ui/toast.ts", "components/ui/toaster.tsx", "components/auth/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "sonner",
              message:
                'Import { toast } from "@/components/ui/toast": it loads sonner on first use instead of with the page.',
            },
            {
              name: "next-auth/react",
              message:
                "next-auth's browser client is for the sign-in page only; " +
                "the shell signs out with components/shell/sign-out.",
            },
          ],
        },
      ],
    },
  },
  {
    plugins: { treasury: boundaries },
    rules: { "treasury/package-boundaries": "error" },
  },
  {
    // lib/bff is server-only (session, upstream credentials); the browser may share its types, never its code —
    // except the isomorphic endpoint declarations it derives its URLs and query keys from
    // (docs/architecture.md#the-bff-declared-per-area).
    files: [`components/**/*.${SOURCE}`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|(\\.\\./)+)lib/bff(/(?!endpoint$|areas/[\\w-]+/endpoints$)|$)",
              allowTypeImports: true,
              message: "Components take lib/bff as types only (import type): its code runs on the server.",
            },
          ],
        },
      ],
    },
  },
  {
    // A BFF URL is written once, in its area's endpoint declarations; the browser and the server's helpers derive it
    // with callBff / endpointQuery / endpointUrl (docs/architecture.md#the-bff-declared-per-area). Tests and e2e specs
    // may keep literal URLs (they test the wire).
    files: [
      `components/**/*.${SOURCE}`,
      `app/(dashboard)/**/*.${SOURCE}`,
      `app/(auth)/**/*.${SOURCE}`,
      `lib/**/*.${SOURCE}`,
    ],
    // lib/bff/testing calls routes as the wire does; NextAuth's own /api/auth/* is not a BFF route, and a template
    // literal type (`/api/${string}`) is no URL (the selectors skip both).
    ignores: ["lib/bff/areas/*/endpoints.ts", "lib/bff/testing/**", "**/*.test.ts", "**/*.test.tsx", "e2e/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Literal[value=/^\\/api\\/(?!auth\\/)/]",
          message:
            "Declare the URL in lib/bff/areas/<area>/endpoints.ts and call it with callBff / endpointQuery / endpointUrl (docs/architecture.md#the-bff-declared-per-area).",
        },
        {
          selector: "TemplateLiteral > TemplateElement[value.raw=/^\\/api\\/(?!auth\\/)/]",
          message:
            "Declare the URL in lib/bff/areas/<area>/endpoints.ts and call it with callBff / endpointQuery / endpointUrl (docs/architecture.md#the-bff-declared-per-area).",
        },
      ],
    },
  },
  {
    // lib/bff builds on lib/auth and lib/server; they must not import it back (no cycle).
    files: [`lib/auth/**/*.${SOURCE}`, `lib/server/**/*.${SOURCE}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^((\\.\\./)+(lib/)?|@/lib/)bff(/|$)",
              message: "lib/auth and lib/server are below lib/bff: importing it makes a cycle.",
            },
          ],
        },
      ],
    },
  },
);
