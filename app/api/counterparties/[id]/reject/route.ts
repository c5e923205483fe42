import { counterpartyDecisionRoute } from "@/lib/bff/decision-routes";

/** POST /api/counterparties/{id}/reject — the same maker-checker rule as verify; see `counterpartyDecisionRoute`. */
export const POST = counterpartyDecisionRoute("reject");
