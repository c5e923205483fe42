import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Treasury Dashboard", template: "%s · Treasury Dashboard" },
  description: "Cash, payments, approvals and reconciliation across your companies.",
};

/**
 * Root layout. Reading the request headers makes every page dynamic, which
 * the per-request CSP nonce (proxy.ts) needs: Next puts the nonce on its
 * scripts only when it renders the page for this request.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await headers();
  return (
    <html lang="en">
      <body className="h-full font-sans text-sm">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
