import type { NextConfig } from "next";

/**
 * Static security headers for every response; the Content-Security-Policy
 * with a per-request nonce is set in `proxy.ts`.
 */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
  // Browsers ignore HSTS on plain http (local use); behind TLS it pins https.
  { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // PGlite ships WebAssembly and data files; node-postgres and pino load native-ish modules at run time; exceljs
  // (the XLSX exports) is plain CommonJS with Node streams, loaded as is rather than bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pino", "pino-pretty", "exceljs"],
  // The workspace packages the dashboard imports ship TypeScript source (packages/contract).
  transpilePackages: ["@treasury/contract"],
  // `npm run typecheck` checks the whole tree (the dashboard, treasury-api and packages/) as its own CI step.
  typescript: { ignoreBuildErrors: true },
  // proxy.ts sees every request; its default 10 MB body limit would cut a 10 MB statement upload (plus multipart
  // framing) short.
  experimental: { proxyClientMaxBodySize: "110mb" },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
