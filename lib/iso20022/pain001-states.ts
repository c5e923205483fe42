/**
 * Batch states a pain.001 is given for: `created` as a draft for review
 * before submitting; from `approved` on, the file a bank would be sent.
 * Its own module so that the batch page can read it without the XML builder.
 */
import type { BatchStatus } from "@treasury/contract/payments";

export const PAIN001_STATES: readonly BatchStatus[] = [
  "created",
  "approved",
  "processing",
  "completed",
  "partially_completed",
  "failed",
];

export const PAIN001_VERSION_LABELS = {
  "pain.001.001.09": "pain.001.001.09 (default)",
  "pain.001.001.03": "pain.001.001.03",
} as const;
