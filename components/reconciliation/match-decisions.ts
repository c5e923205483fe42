import type { MatchReviewRow } from "@/lib/views/reconciliation";
import { endpointUrl } from "@/lib/bff/endpoint";
import { reconciliationEndpoints } from "@/lib/bff/areas/reconciliation/endpoints";
import type { RowDecisionConfig } from "@/components/review-queue/use-row-decisions";
import type { MatchAction } from "./match-decision-dialog";
import { matchQueries, type MatchReviewFilters } from "./match-queries";

/**
 * Confirm / reject on the reconciliation review, for `useReviewQueue`: a
 * decided match leaves the "to review" page at once (`filters` name the page
 * the rows are cached under) and every reconciliation query is refetched after.
 */
export function matchDecisions(filters: MatchReviewFilters): RowDecisionConfig<MatchReviewRow, MatchAction> {
  return {
    listKey: matchQueries.review(filters).queryKey,
    invalidate: [...matchQueries.keys()],
    idOf: (r) => r.match.id,
    url: (r, d) => endpointUrl(reconciliationEndpoints[d], { id: r.match.id }, { company_id: r.match.company_id }),
    applied: () => null,
    done: { confirm: "Confirmed", reject: "Rejected" },
    noun: { confirm: "The confirmation", reject: "The rejection" },
    label: (r) => `Match ${r.instruction?.end_to_end_id ?? r.match.id.slice(0, 8)}`,
  };
}
