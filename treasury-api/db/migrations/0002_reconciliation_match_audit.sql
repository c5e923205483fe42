ALTER TABLE "reconciliation_matches" ADD COLUMN "decided_by_client_id" uuid;--> statement-breakpoint
ALTER TABLE "reconciliation_matches" ADD COLUMN "reviewer" text;--> statement-breakpoint
ALTER TABLE "reconciliation_matches" ADD COLUMN "decision_reason" text;--> statement-breakpoint
CREATE INDEX "payment_instructions_company_e2e" ON "payment_instructions" USING btree ("company_id","end_to_end_id");