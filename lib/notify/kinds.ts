/**
 * The kinds of notification and who gets each (docs/users-and-notifications.md#who-is-told-what). Plain constants,
 * importable by the browser (the settings page lists them).
 */
export const NOTIFICATION_KINDS = {
  /** A submitted batch waits for an approval the person is eligible to give under the batch's policy. */
  "approval.waiting": "A batch waits for my approval",
  /** The person's batch got its last approval. */
  "batch.approved": "My batch was approved",
  /** The person's batch was rejected by an approver. */
  "batch.rejected": "My batch was rejected",
  /** The bank rejected a payment of the person's batch. */
  "payment.bank_rejected": "The bank rejected a payment of my batch",
  /** Admins: a bank connection failed, or an expected statement did not arrive. */
  "bank.alert": "A bank connection failed or a statement is missing (admins)",
} as const;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
export const NOTIFICATION_KIND_LIST = Object.keys(NOTIFICATION_KINDS) as NotificationKind[];
