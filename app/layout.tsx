import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { ViewerProvider } from "@/components/format/viewer";
import { TIME_ZONE_COOKIE, localeFromAcceptLanguage, validTimeZone } from "@/lib/viewer";
import "./globals.css";

/** The root layout reads the request's headers and cookies (locale, time zone): every page renders per request. */
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Treasury Dashboard", template: "%s · Treasury Dashboard" },
  description: "Cash, payments, approvals and reconciliation across your companies.",
};

/**
 * Root layout. Reading the request headers makes every page dynamic, which
 * the per-request CSP nonce (proxy.ts) needs: Next puts the nonce on its
 * scripts only when it renders the page for this request. The request's Accept-Language and `tz` cookie give the
 * locale and time zone the server renders dates and times in (lib/viewer.ts), so they match the browser's; with no
 * cookie yet (a first visit) times are rendered hidden and shown once the browser knows its zone.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const [requestHeaders, requestCookies] = await Promise.all([headers(), cookies()]);
  const locale = localeFromAcceptLanguage(requestHeaders.get("accept-language"));
  const timeZone = validTimeZone(requestCookies.get(TIME_ZONE_COOKIE)?.value);
  return (
    <html lang={locale}>
      <body className="h-full font-sans text-sm">
        <ViewerProvider locale={locale} timeZone={timeZone}>
          <Providers>{children}</Providers>
        </ViewerProvider>
      </body>
    </html>
  );
}
