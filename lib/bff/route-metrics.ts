/**
 * BFF latency for `dashboard_bff_duration_seconds{route,status}`: `timed`
 * wraps a route handler and observes its duration by route template
 * (`/api/treasury/accounts/[id]`, never a concrete id) and answer status.
 */
import "server-only";
import { metrics } from "../server/metrics";

type Params = Record<string, string | string[] | undefined>;
type Segment = { params: Promise<Record<string, string | string[]>> };

/**
 * The route template of `pathname` given the route's parameters: the segment
 * holding a parameter's value becomes `[name]`, a catch-all's run of segments
 * `[...name]` (searched from the end, where dynamic segments sit).
 */
export function routeTemplate(pathname: string, params: Params): string {
  const segments = pathname.split("/");
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  for (const [name, value] of Object.entries(params)) {
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    if (values.length === 0) continue;
    for (let i = segments.length - values.length; i >= 0; i--) {
      if (values.every((v, j) => decode(segments[i + j] ?? "") === v)) {
        segments.splice(i, values.length, Array.isArray(value) ? `[...${name}]` : `[${name}]`);
        break;
      }
    }
  }
  return segments.join("/");
}

/** Wraps a route handler so that each answer is observed; the observation never delays or fails the answer. */
export function timed<R extends { nextUrl: URL }, S extends Segment | undefined, A extends Response>(
  handler: (req: R, segment: S) => Promise<A>,
): (req: R, segment: S) => Promise<A> {
  return async (req, segment) => {
    const started = performance.now();
    const res = await handler(req, segment);
    const seconds = (performance.now() - started) / 1000;
    void Promise.resolve(segment?.params ?? {})
      .then((params) => {
        const route = routeTemplate(req.nextUrl.pathname, params);
        metrics().bffDuration.observe({ route, status: String(res.status) }, seconds);
      })
      .catch(() => undefined);
    return res;
  };
}
