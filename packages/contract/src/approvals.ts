/** Approval requests (docs/treasury-api.md#approvals; docs/architecture.md#states-and-transitions, #extensions). */
import { z } from "zod";
import { IsoDateTime, Uuid, freeText, text } from "./common";

export const APPROVAL_STATES = ["pending", "partially_approved", "approved", "rejected"] as const;
export const ApprovalState = z.enum(APPROVAL_STATES);
export type ApprovalState = z.infer<typeof ApprovalState>;

export const ApprovalRequest = z
  .object({
    id: Uuid,
    object_id: Uuid,
    state: ApprovalState,
    required_count: z.number().int(),
    approved_count: z.number().int().meta({ description: "Extension" }),
    object_type: z.literal("payment_batch").meta({ description: "Extension" }),
    created_at: IsoDateTime.meta({ description: "Extension" }),
    company_id: Uuid.optional().meta({ description: "Extension" }),
  })
  .meta({ id: "ApprovalRequest" });
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** Optional body of approve / reject (extension): who decided and why, for the audit trail. */
export const ApprovalDecisionBody = z
  .object({
    approver: text(200).optional(),
    reason: freeText(500, 0).optional(),
  })
  .strict();
