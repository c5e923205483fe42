/**
 * The endpoints of a dashboard-owned collection of items at one path (docs/architecture.md#the-bff-declared-per-area),
 * whose routes ./admin-items.ts declares by the same roles. Isomorphic: the browser derives its URLs from these.
 */
import { endpoint } from "../endpoint";

/** `path` (below an `/api/...` base) typed as the literal path it is, for `endpoint`. */
const below = <P extends string>(path: P) => path as P & `/api/${string}`;

/**
 * The collection at `base` (e.g. `/api/categories`): `list` (GET `base`; narrow its answer with `.returns<R>()`), `add`
 * (POST `base`), `change` (PUT `base/[id]`) and `remove` (DELETE `base/[id]`).
 */
export function itemEndpoints<B extends `/api/${string}`>(base: B) {
  return {
    list: endpoint("GET", base),
    add: endpoint("POST", base),
    change: endpoint("PUT", below(`${base}/[id]`)),
    remove: endpoint("DELETE", below(`${base}/[id]`)),
  };
}

/** `itemEndpoints` of an ordered collection, plus `move` (POST `base/[id]/move` with `{ position }`). */
export function orderedItemEndpoints<B extends `/api/${string}`>(base: B) {
  return { ...itemEndpoints(base), move: endpoint("POST", below(`${base}/[id]/move`)) };
}
