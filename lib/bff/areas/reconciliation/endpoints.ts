/**
 * The reconciliation area's BFF endpoints (docs/guides/reconciliation.md): the review of proposed matches and its
 * decisions, the unmatched view with its manual match, and the admin's auto-confirm rules. Isomorphic: the browser
 * derives its URLs and query keys from these (docs/architecture.md#the-bff-declared-per-area).
 */
import type { ReconciliationMatch } from "@treasury/contract/reconciliation";
import type { MatchReviewPage } from "@/lib/views/reconciliation";
import type { MatchCandidate, UnmatchedPage } from "@/lib/views/unmatched";
import type { BulkConfirmResult } from "../../bulk-confirm";
import type { AutoRulesView } from "../../queries/auto-rules";
import { endpoint } from "../../endpoint";
import { itemEndpoints } from "../item-endpoints";

/** The answer of a bulk or exact confirmation: one result per match, in the ids' order, and their counts. */
export interface BulkConfirmAnswer {
  results: BulkConfirmResult[];
  confirmed: number;
  refused: number;
}

const rules = itemEndpoints("/api/reconciliation-rules");

export const reconciliationEndpoints = {
  review: endpoint("GET", "/api/treasury/reconciliation/review").returns<MatchReviewPage>(),
  matches: endpoint("GET", "/api/treasury/reconciliation/matches"),
  confirm: endpoint("POST", "/api/treasury/reconciliation/matches/[id]/confirm"),
  reject: endpoint("POST", "/api/treasury/reconciliation/matches/[id]/reject"),
  undoConfirm: endpoint("POST", "/api/treasury/reconciliation/matches/[id]/undo-confirm"),
  undoAutoConfirm: endpoint("POST", "/api/treasury/reconciliation/matches/[id]/undo-auto-confirm"),
  bulkConfirm: endpoint("POST", "/api/treasury/reconciliation/matches/bulk-confirm").returns<BulkConfirmAnswer>(),
  confirmExact: endpoint("POST", "/api/treasury/reconciliation/matches/confirm-exact").returns<BulkConfirmAnswer>(),
  unmatched: endpoint("GET", "/api/treasury/reconciliation/unmatched").returns<UnmatchedPage>(),
  candidates: endpoint("GET", "/api/treasury/reconciliation/unmatched/candidates").returns<{
    items: MatchCandidate[];
  }>(),
  manualMatch: endpoint("POST", "/api/treasury/reconciliation/manual-matches").returns<ReconciliationMatch>(),
  rules: rules.list.returns<AutoRulesView>(),
  addRule: rules.add,
  changeRule: rules.change,
  removeRule: rules.remove,
};
