/**
 * The dashboard's audit event as the browser sees it (no internal user ids).
 * Types only: built by the BFF's audit read, shown by the audit log view.
 */
export interface AuditEventView {
  id: string;
  /** ISO 8601 timestamp. */
  at: string;
  user_email: string;
  /** The user's name in the dashboard; null when it has none (the e-mail is shown). */
  user_name?: string | null;
  action: string;
  object_type: string;
  object_id: string | null;
  company_id: string | null;
  idempotency_key: string | null;
  outcome: string;
  request_id: string | null;
  /** Extra facts of the event, e.g. `{ batch_id, reason }` of an approval decision. */
  details: Record<string, unknown>;
}
