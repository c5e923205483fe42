import { matchDecisionRoute } from "@/lib/bff/decision-routes";

/** POST /reconciliation/matches/{id}/reject (treasurer), with an optional reason. */
export const POST = matchDecisionRoute("reject");
