ALTER TABLE "payment_batches" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD COLUMN "debtor_account_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_instructions" ADD COLUMN "creditor_bic" text;--> statement-breakpoint
ALTER TABLE "payment_instructions" ADD COLUMN "remittance_type" text;--> statement-breakpoint
ALTER TABLE "payment_instructions" ADD COLUMN "remittance_text" text;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD CONSTRAINT "payment_batches_debtor_account_id_accounts_id_fk" FOREIGN KEY ("debtor_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;