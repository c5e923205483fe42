import { matchDecisionRoute } from "@/lib/bff/decision-routes";

/** POST /reconciliation/matches/{id}/confirm (treasurer). */
export const POST = matchDecisionRoute("confirm");
