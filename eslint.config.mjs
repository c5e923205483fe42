// ESLint flat config (the ESLint CLI; `next lint` is gone in Next 16).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
                "next-auth's browser client is for the sign-in page only; the shell signs out with components/shell/sign-out.",
            },
          ],
        },
      ],
    },
  },
);
