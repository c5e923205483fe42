// ESLint flat config (the ESLint CLI; `next lint` is gone in Next 16).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Import boundaries between the layers, as `no-restricted-imports` zones (the layering rules are in each message).
const SOURCE = "{ts,tsx,mts,js,mjs}";

/**
 * treasury-api is a separate service that a real deployment replaces: from the dashboard's lib/ it takes only
 * the shared contract, the SQL helpers and the exact decimal, never the dashboard's server or UI code (its tests
 * may use the scripts' helpers, such as the throw-away PostgreSQL cluster). Relative paths
 * look alike at every depth (treasury-api has a lib/ of its own), so there is one block per folder depth, each
 * knowing how many "../" lead to the repository root.
 */
function treasuryApiZone(depth) {
  const root = `^(\\.\\./){${depth}}`;
  const message = "treasury-api takes only lib/contract, lib/sql and lib/exact-decimal from the dashboard's tree.";
  return {
    files: [`treasury-api/${"*/".repeat(depth - 1)}*.${SOURCE}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: `${root}(lib/(?!(contract|sql)(/|$)|exact-decimal(\\.ts)?$)|components/|app/)`, message },
            { regex: "^@/(?!lib/(contract|sql)(/|$)|lib/exact-decimal$)", message },
          ],
        },
      ],
    },
  };
}

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
  ...[1, 2, 3, 4, 5].map(treasuryApiZone),
  {
    // lib/bff is server-only (session, upstream credentials); the browser may share its types, never its code.
    files: [`components/**/*.${SOURCE}`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|(\\.\\./)+)lib/bff(/|$)",
              allowTypeImports: true,
              message: "Components take lib/bff as types only (import type): its code runs on the server.",
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by the API, the client, the BFF and the browser: it depends on nothing else of ours
    // but lib/exact-decimal, a leaf module (decimal.js only) that the batch total check needs.
    files: [`lib/contract/**/*.${SOURCE}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./(?!exact-decimal$)|@/(?!lib/exact-decimal$))",
              message: "lib/contract imports no other module of this repository (lib/exact-decimal excepted).",
            },
          ],
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
