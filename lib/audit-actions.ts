/**
 * The names of the dashboard's audit actions: every successful write through
 * the BFF, a sign-in and an SSO link are logged under one of these. Typed so a
 * misspelt name is a compile error rather than an event no filter finds.
 * Importable by the browser (plain constants, no server code).
 */
export const AUDIT_ACTION = {
  batchCreate: "payment_batch.create",
  batchSubmit: "payment_batch.submit",
  batchEdit: "payment_batch.edit",
  batchDiscard: "payment_batch.discard",
  batchPain001Export: "payment_batch.pain001_export",
  statementsImport: "statements.import",
  approvalApprove: "approval.approve",
  approvalReject: "approval.reject",
  matchConfirm: "reconciliation_match.confirm",
  matchReject: "reconciliation_match.reject",
  webhookCreate: "webhook.create",
  webhookUpdate: "webhook.update",
  webhookTest: "webhook.test",
  webhookDelete: "webhook.delete",
  companyUpsert: "company.upsert",
  accountUpsert: "account.upsert",
  signIn: "session.sign_in",
  ssoLink: "user.sso_link",
  ssoUnlink: "user.sso_unlink",
  counterpartyCreate: "counterparties.create",
  counterpartyImport: "counterparties.import",
  counterpartyBankDetailsChange: "counterparties.bank_details.change",
  counterpartyVerify: "counterparties.verify",
  counterpartyReject: "counterparties.reject",
  counterpartyDisable: "counterparties.disable",
} as const;

/** One audit action name, e.g. `"approval.approve"`. */
export type AuditAction = (typeof AUDIT_ACTION)[keyof typeof AUDIT_ACTION];

/** The actions the audit log's filter offers, in its order (the admin-only upserts and SSO links are left out). */
export const AUDIT_FILTER_ACTIONS: readonly AuditAction[] = [
  AUDIT_ACTION.batchCreate,
  AUDIT_ACTION.batchSubmit,
  AUDIT_ACTION.batchEdit,
  AUDIT_ACTION.batchDiscard,
  AUDIT_ACTION.batchPain001Export,
  AUDIT_ACTION.statementsImport,
  AUDIT_ACTION.approvalApprove,
  AUDIT_ACTION.approvalReject,
  AUDIT_ACTION.matchConfirm,
  AUDIT_ACTION.matchReject,
  AUDIT_ACTION.webhookCreate,
  AUDIT_ACTION.webhookUpdate,
  AUDIT_ACTION.webhookTest,
  AUDIT_ACTION.webhookDelete,
  AUDIT_ACTION.counterpartyCreate,
  AUDIT_ACTION.counterpartyImport,
  AUDIT_ACTION.counterpartyBankDetailsChange,
  AUDIT_ACTION.counterpartyVerify,
  AUDIT_ACTION.counterpartyReject,
  AUDIT_ACTION.counterpartyDisable,
  AUDIT_ACTION.signIn,
];
