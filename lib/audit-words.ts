/**
 * The audit log in words: each action as a phrase ("approved batch “Salaries
 * Nov”"), and which actions are business events and which are sign-in and
 * session events (the log shows business events first; sessions are one
 * click away). Pure and importable by the browser. The action codes are in
 * lib/audit-actions.ts; see docs/ for the audit log's place in the dashboard.
 */
import { AUDIT_ACTION, type AuditAction } from "./audit-actions";

/** Sign-in, lockout, step-up and passkey / SSO bookkeeping: who got in, not what they did. */
export const SESSION_ACTIONS: ReadonlySet<string> = new Set<AuditAction>([
  AUDIT_ACTION.signIn,
  AUDIT_ACTION.signInLockout,
  AUDIT_ACTION.stepUp,
  AUDIT_ACTION.ssoLink,
  AUDIT_ACTION.ssoUnlink,
  AUDIT_ACTION.passkeyAdd,
  AUDIT_ACTION.passkeyRename,
  AUDIT_ACTION.passkeyRemove,
  AUDIT_ACTION.userPasskeysRemove,
]);

/** Which events a view of the log shows: business events, sign-ins and sessions, or all. */
export type AuditEventKind = "business" | "sessions" | "all";

/** True when `action` belongs to `kind`. */
export function auditActionIn(action: string, kind: AuditEventKind): boolean {
  if (kind === "all") return true;
  return SESSION_ACTIONS.has(action) === (kind === "sessions");
}

/** Verb and noun of each action: "approved" + "batch". An unknown code reads as itself. */
const WORDS: Record<AuditAction, [verb: string, noun: string]> = {
  [AUDIT_ACTION.batchCreate]: ["created", "batch"],
  [AUDIT_ACTION.batchSubmit]: ["submitted", "batch"],
  [AUDIT_ACTION.batchEdit]: ["edited", "batch"],
  [AUDIT_ACTION.batchDiscard]: ["discarded", "batch"],
  [AUDIT_ACTION.batchPain001Export]: ["exported the pain.001 file of", "batch"],
  [AUDIT_ACTION.statementsImport]: ["imported", "statements"],
  [AUDIT_ACTION.approvalApprove]: ["approved", "batch"],
  [AUDIT_ACTION.approvalReject]: ["rejected", "batch"],
  [AUDIT_ACTION.matchConfirm]: ["confirmed", "match"],
  [AUDIT_ACTION.matchReject]: ["rejected", "match"],
  [AUDIT_ACTION.matchReopen]: ["reopened", "match"],
  [AUDIT_ACTION.autoRuleCreate]: ["created", "auto-confirm rule"],
  [AUDIT_ACTION.autoRuleUpdate]: ["changed", "auto-confirm rule"],
  [AUDIT_ACTION.autoRuleDelete]: ["deleted", "auto-confirm rule"],
  [AUDIT_ACTION.webhookCreate]: ["created", "webhook"],
  [AUDIT_ACTION.webhookUpdate]: ["changed", "webhook"],
  [AUDIT_ACTION.webhookTest]: ["tested", "webhook"],
  [AUDIT_ACTION.webhookDelete]: ["deleted", "webhook"],
  [AUDIT_ACTION.companyUpsert]: ["saved", "company"],
  [AUDIT_ACTION.accountUpsert]: ["saved", "account"],
  [AUDIT_ACTION.signIn]: ["signed in", ""],
  [AUDIT_ACTION.signInLockout]: ["was locked out after failed sign-ins", ""],
  [AUDIT_ACTION.ssoLink]: ["linked single sign-on for", "user"],
  [AUDIT_ACTION.ssoUnlink]: ["unlinked single sign-on for", "user"],
  [AUDIT_ACTION.counterpartyCreate]: ["created", "counterparty"],
  [AUDIT_ACTION.counterpartyImport]: ["imported", "counterparties"],
  [AUDIT_ACTION.counterpartyBankDetailsChange]: ["changed the bank details of", "counterparty"],
  [AUDIT_ACTION.counterpartyVerify]: ["verified", "counterparty"],
  [AUDIT_ACTION.counterpartyReject]: ["rejected", "counterparty"],
  [AUDIT_ACTION.counterpartyDisable]: ["disabled", "counterparty"],
  [AUDIT_ACTION.passkeyAdd]: ["added", "passkey"],
  [AUDIT_ACTION.passkeyRename]: ["renamed", "passkey"],
  [AUDIT_ACTION.passkeyRemove]: ["removed", "passkey"],
  [AUDIT_ACTION.userPasskeysRemove]: ["removed the passkeys of", "user"],
  [AUDIT_ACTION.userInvite]: ["invited", "user"],
  [AUDIT_ACTION.userUpdate]: ["changed", "user"],
  [AUDIT_ACTION.userDisable]: ["disabled", "user"],
  [AUDIT_ACTION.userEnable]: ["enabled", "user"],
  [AUDIT_ACTION.userPasswordReset]: ["reset the password of", "user"],
  [AUDIT_ACTION.userInvitationAccept]: ["set a password through a link for", "user"],
  [AUDIT_ACTION.userRefused]: ["was refused changing", "user"],
  [AUDIT_ACTION.stepUp]: ["confirmed with a passkey", ""],
  [AUDIT_ACTION.approvalRefused]: ["was refused approving", "batch"],
  [AUDIT_ACTION.counterpartyRefused]: ["was refused deciding on", "counterparty"],
  [AUDIT_ACTION.approvalPolicyRefused]: ["was refused changing", "approval policy"],
  [AUDIT_ACTION.policyCreate]: ["created", "approval policy"],
  [AUDIT_ACTION.policyUpdate]: ["changed", "approval policy"],
  [AUDIT_ACTION.policyMove]: ["reordered", "approval policy"],
  [AUDIT_ACTION.policyDelete]: ["deleted", "approval policy"],
  [AUDIT_ACTION.approverGroupSave]: ["saved", "approver group"],
  [AUDIT_ACTION.approverGroupDelete]: ["deleted", "approver group"],
  [AUDIT_ACTION.categoryRuleCreate]: ["created", "category rule"],
  [AUDIT_ACTION.categoryRuleUpdate]: ["changed", "category rule"],
  [AUDIT_ACTION.categoryRuleMove]: ["reordered", "category rule"],
  [AUDIT_ACTION.categoryRuleDelete]: ["deleted", "category rule"],
  [AUDIT_ACTION.forecastLineCreate]: ["added", "forecast line"],
  [AUDIT_ACTION.forecastLineUpdate]: ["changed", "forecast line"],
  [AUDIT_ACTION.forecastLineDelete]: ["removed", "forecast line"],
  [AUDIT_ACTION.forecastScenarioCreate]: ["created", "forecast scenario"],
  [AUDIT_ACTION.forecastScenarioUpdate]: ["changed", "forecast scenario"],
  [AUDIT_ACTION.forecastScenarioDelete]: ["deleted", "forecast scenario"],
  [AUDIT_ACTION.forecastSettingChange]: ["changed", "forecast settings"],
  [AUDIT_ACTION.forecastSnapshotCreate]: ["stored", "forecast snapshot (test seam)"],
};

/** The action as a short label for a filter: "approved batch", "signed in"; an unknown code as itself. */
export function auditActionLabel(action: string): string {
  const w = (WORDS as Record<string, [string, string] | undefined>)[action];
  if (!w) return action;
  return w[1] ? `${w[0]} ${w[1]}` : w[0];
}

function text(v: unknown): string | null {
  return typeof v === "string" && v.trim() ? v.trim() : null;
}

/**
 * What happened, in words: "approved batch “Salaries Nov”", "verified counterparty “Fjordkraft Energi AS”",
 * "signed in". The object is named by what the event recorded (`details.reference`, `details.name`,
 * `details.batch_reference`), else by the short id ("batch 3f2a9c1d"); a refused or failed outcome is said.
 * Unknown codes read as the code itself.
 */
export function auditSentence(e: {
  action: string;
  object_id: string | null;
  outcome: string;
  details: Record<string, unknown>;
}): string {
  const w = (WORDS as Record<string, [string, string] | undefined>)[e.action];
  if (!w) return e.action;
  const [verb, noun] = w;
  const name =
    text(e.details.reference) ?? text(e.details.batch_reference) ?? text(e.details.name) ?? text(e.details.label);
  const id = text(e.details.batch_id) ?? e.object_id;
  const object = noun ? (name ? `${noun} “${name}”` : id ? `${noun} ${id.slice(0, 8)}` : noun) : "";
  const sentence = object ? `${verb} ${object}` : verb;
  if (e.outcome === "success" || e.action.endsWith(".refused")) return sentence;
  return `${sentence} (${e.outcome.replaceAll("_", " ")})`;
}
