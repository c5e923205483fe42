import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Landmark } from "lucide-react";
import { areasFor } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/session";
import { capabilities } from "@/lib/bff/capabilities";
import { COMPANY_COOKIE, visibleCompanies } from "@/lib/bff/company";
import type { Company } from "@treasury/contract";
import { logger } from "@/lib/server/log";
import { Nav } from "@/components/shell/nav";
import { CompanySwitcher } from "@/components/shell/company-switcher";
import { UserMenu } from "@/components/shell/user-menu";
import { NotificationBell } from "@/components/shell/notification-bell";
import { MobileNav } from "@/components/shell/mobile-nav";
import { ReportingCurrencySwitch } from "@/components/shell/reporting-currency-switch";
import {
  defaultReportingCurrency,
  reportingCurrencyFor,
  supportedReportingCurrencies,
} from "@/lib/group/reporting-currency";

/**
 * Every dashboard page reads the session (cookies, headers), so none can be prerendered at build time: declared
 * here once, the build does not try (and log a "Dynamic server usage" error per page).
 */
export const dynamic = "force-dynamic";

/**
 * The app shell: navigation limited to the user's areas, the company
 * switcher, the reporting-currency switch, the user's name and roles, sign-out. Pages render inside it and
 * have their own loading / error states, so a failing page never takes the
 * shell down. Below `md` (phones, small tablets) the sidebar gives way to a
 * menu button in the header that opens the navigation as a sheet, the
 * main content takes the full width, and the page itself scrolls (as phone
 * browsers expect) under a sticky header; from `md` up only the main area scrolls.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/login");
  let companies: Company[] = [];
  let apiDown = false;
  try {
    companies = await visibleCompanies(user);
  } catch (err) {
    logger.error({ err }, "company list failed");
    apiDown = true;
  }
  const cookie = (await cookies()).get(COMPANY_COOKIE)?.value;
  // The shell shows the cookie's company only when allowed; pages and BFF routes refuse a bad cookie with 403.
  const current = companies.find((c) => c.id === cookie) ?? (cookie ? null : (companies[0] ?? null));
  const caps = await capabilities();
  let reporting = { currency: defaultReportingCurrency(), supported: [defaultReportingCurrency()] };
  try {
    const [mine, supported] = await Promise.all([reportingCurrencyFor(user.id), supportedReportingCurrencies()]);
    reporting = { currency: mine.currency, supported };
  } catch (err) {
    logger.error({ err }, "reporting currency failed");
  }
  // Statement upload is an extension: listed only when the API's OpenAPI document advertises it.
  const areas = areasFor(user.roles)
    .filter((a) => a.key !== "statements" || caps.has("statements.upload"))
    .filter((a) => a.key !== "bank-connections" || caps.has("bank_connections.health"))
    .map((a) => ({ key: a.key, label: a.label, href: a.href }));

  return (
    <div className="flex min-h-full md:h-full">
      <aside aria-label="Sidebar" className="hidden w-56 shrink-0 flex-col bg-slate-900 py-4 md:flex">
        <div className="mb-5 flex items-center gap-2 px-4 text-white">
          <Landmark className="size-5 text-sky-400" aria-hidden />
          <span className="text-sm font-semibold tracking-tight">Treasury</span>
        </div>
        <Nav areas={areas} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header
          className={
            "sticky top-0 z-30 flex h-14 shrink-0 items-center " +
            "justify-between gap-2 border-b border-slate-200 bg-white px-3 md:gap-4 md:px-6"
          }
        >
          <MobileNav areas={areas} name={user.name} roles={user.roles} />
          <CompanySwitcher
            companies={companies.map((c) => ({ id: c.id, name: c.name, country: c.country }))}
            currentId={current?.id ?? null}
          />
          <div className="flex shrink-0 items-center gap-2 md:gap-3">
            <ReportingCurrencySwitch current={reporting.currency} supported={reporting.supported} />
            <div className="hidden sm:block">
              <NotificationBell />
            </div>
            <UserMenu name={user.name} email={user.email} roles={user.roles} />
          </div>
        </header>
        {apiDown && (
          <div
            role="status"
            className="border-b border-amber-200 bg-amber-50 px-3 py-2 md:px-6 text-[13px] text-amber-900"
          >
            The Treasury API cannot be reached right now; figures may be missing. The dashboard retries on each page.
          </div>
        )}
        <main className="min-w-0 flex-1 px-3 md:overflow-auto py-4 md:px-6 md:py-5">{children}</main>
      </div>
    </div>
  );
}
