/**
 * Loading helpers for server components: the same context as the route
 * handlers, but failures become a state the page renders inside the shell
 * (production builds hide thrown messages from error boundaries, and a
 * missing permission or a company problem is not a crash).
 */
import "server-only";
import { redirect, unstable_rethrow } from "next/navigation";
import type { Company } from "@treasury/contract";
import { AREAS, can, type AreaKey } from "../auth/roles";
import { requestContext, type BffContext } from "./context";
import { BffError, toBffError } from "./errors";
import { logger } from "../server/log";

/** A request context whose selected company is known (pages that show one company's data). */
export type CompanyContext = BffContext & { company: Company };

/** A failed load, rendered inside the shell: no access, or the data could not be loaded. */
export type LoadFailure = {
  ok: false;
  /** `not-found`: the item named in the address does not exist for the selected company (PageProblem answers 404). */
  kind: "forbidden" | "error" | "not-found";
  title: string;
  message: string;
  requestId?: string;
};

/** Why a page cannot render its view: a failed load, or no company the user may see. */
export type PageFailure = LoadFailure | { ok: false; kind: "no-company"; title: string; message: string };

export type PageLoad<C extends BffContext = BffContext> = { ok: true; ctx: C } | PageFailure;

/** What a page needs beyond its area's permission. */
export interface PageNeeds {
  /** `required`: the page shows the selected company's data, so a user without one gets the no-company state. */
  company?: "required" | "optional";
}

const NO_COMPANY: PageFailure = {
  ok: false,
  kind: "no-company",
  title: "No company available",
  message: "Ask an administrator to give you access to a company.",
};

/**
 * The page's context, or a renderable problem: no access to the area, and with
 * `{ company: "required" }` no selected company. Redirects to /login without a session.
 */
export async function loadPage(area: AreaKey, needs: { company: "required" }): Promise<PageLoad<CompanyContext>>;
export async function loadPage(area: AreaKey, needs?: PageNeeds): Promise<PageLoad>;
export async function loadPage(area: AreaKey, needs: PageNeeds = {}): Promise<PageLoad> {
  let ctx: BffContext;
  try {
    ctx = await requestContext();
  } catch (err) {
    // Next's own signals (a page that reads headers is dynamic; redirects) are not failures: let them through.
    unstable_rethrow(err);
    if (err instanceof BffError && err.status === 401) redirect("/login");
    return problem(err, "unknown");
  }
  const a = AREAS.find((x) => x.key === area);
  if (a && !can(ctx.user.roles, a.permission)) {
    return { ok: false, kind: "forbidden", title: "No access", message: `Your role does not include ${a.label}.` };
  }
  if (needs.company === "required" && !ctx.company) return NO_COMPANY;
  return { ok: true, ctx };
}

/** Runs a data load for a page; an error becomes a renderable problem. */
export async function loadData<T>(ctx: BffContext, fn: () => Promise<T>): Promise<{ ok: true; data: T } | LoadFailure> {
  try {
    return { ok: true, data: await fn() };
  } catch (err) {
    unstable_rethrow(err);
    return problem(err, ctx.requestId);
  }
}

/**
 * `loadPage(area)` then `loadData(ctx, () => fn(ctx))`: the page's data, or the first renderable problem (no access,
 * the load failed). Redirects to /login without a session, as `loadPage` does.
 */
export async function loadPageData<T>(
  area: AreaKey,
  fn: (ctx: BffContext) => Promise<T>,
): Promise<{ ok: true; data: T } | PageFailure> {
  const load = await loadPage(area);
  if (!load.ok) return load;
  return loadData(load.ctx, () => fn(load.ctx));
}

function problem(err: unknown, requestId: string): LoadFailure {
  const mapped = toBffError(err, requestId);
  if (mapped.log) logger.error({ requestId, err }, "page data failed");
  const forbidden = mapped.status === 403;
  const missing = mapped.status === 404;
  return {
    ok: false,
    kind: forbidden ? "forbidden" : missing ? "not-found" : "error",
    title: forbidden ? "No access" : missing ? "Not found" : "This view could not be loaded",
    message: mapped.body.message,
    // Every failure keeps its request id, so support can find the request whatever went wrong.
    requestId: requestId === "unknown" ? undefined : requestId,
  };
}
