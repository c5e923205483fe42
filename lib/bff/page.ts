/**
 * Loading helpers for server components: the same context as the route
 * handlers, but failures become a state the page renders inside the shell
 * (production builds hide thrown messages from error boundaries, and a
 * missing permission or a company problem is not a crash).
 */
import "server-only";
import { redirect } from "next/navigation";
import { AREAS, can, type AreaKey } from "../auth/roles";
import { requestContext, type BffContext } from "./context";
import { BffError, toBffError } from "./errors";
import { logger } from "../server/log";

export type PageLoad =
  | { ok: true; ctx: BffContext }
  | { ok: false; kind: "forbidden" | "error"; title: string; message: string; requestId?: string };

/** The page's context, or a renderable problem. Redirects to /login without a session. */
export async function loadPage(area: AreaKey): Promise<PageLoad> {
  let ctx: BffContext;
  try {
    ctx = await requestContext();
  } catch (err) {
    if (err instanceof BffError && err.status === 401) redirect("/login");
    return problem(err, "unknown");
  }
  const a = AREAS.find((x) => x.key === area);
  if (a && !can(ctx.user.roles, a.permission)) {
    return { ok: false, kind: "forbidden", title: "No access", message: `Your role does not include ${a.label}.` };
  }
  return { ok: true, ctx };
}

/** Runs a data load for a page; an error becomes a renderable problem. */
export async function loadData<T>(
  ctx: BffContext,
  fn: () => Promise<T>,
): Promise<{ ok: true; data: T } | Extract<PageLoad, { ok: false }>> {
  try {
    return { ok: true, data: await fn() };
  } catch (err) {
    return problem(err, ctx.requestId);
  }
}

function problem(err: unknown, requestId: string): Extract<PageLoad, { ok: false }> {
  const mapped = toBffError(err, requestId);
  if (mapped.log) logger.error({ requestId, err }, "page data failed");
  const forbidden = mapped.status === 403;
  return {
    ok: false,
    kind: forbidden ? "forbidden" : "error",
    title: forbidden ? "No access" : "This view could not be loaded",
    message: mapped.body.message,
    requestId: mapped.status >= 500 ? requestId : undefined,
  };
}
