import { counterpartyDecisionRoute } from "@/lib/bff/decision-routes";

/** POST /api/counterparties/{id}/verify — maker-checker and passkey step-up; see `counterpartyDecisionRoute`. */
export const POST = counterpartyDecisionRoute("verify");
