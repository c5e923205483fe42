CREATE TABLE "counterparties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text,
	"country" text NOT NULL,
	"lei" text,
	"orgnr" text,
	"default_remittance" text,
	"status" text DEFAULT 'pending_verification' NOT NULL,
	"created_by" uuid NOT NULL,
	"bank_details_changed_by" uuid,
	"bank_details_changed_at" timestamp with time zone,
	"verified_by" uuid,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "counterparties_status" CHECK ("counterparties"."status" in ('pending_verification', 'verified', 'rejected', 'disabled'))
);
--> statement-breakpoint
CREATE TABLE "counterparty_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"counterparty_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"event" text NOT NULL,
	"old_iban" text,
	"new_iban" text,
	"old_bic" text,
	"new_bic" text,
	"old_status" text,
	"new_status" text NOT NULL,
	"by_user_id" uuid NOT NULL,
	"by_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text,
	"version" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "counterparty_history" ADD CONSTRAINT "counterparty_history_counterparty_id_counterparties_id_fk" FOREIGN KEY ("counterparty_id") REFERENCES "public"."counterparties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "counterparties_company_name" ON "counterparties" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "counterparties_company_iban_live" ON "counterparties" USING btree ("company_id","iban") WHERE "counterparties"."status" in ('pending_verification', 'verified');--> statement-breakpoint
CREATE INDEX "counterparty_history_counterparty" ON "counterparty_history" USING btree ("counterparty_id","at");--> statement-breakpoint
-- The history of a counterparty is append-only, like the audit log: rows can be inserted, never changed or removed.
CREATE OR REPLACE FUNCTION counterparty_history_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'counterparty_history is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER counterparty_history_no_update BEFORE UPDATE OR DELETE ON counterparty_history
  FOR EACH ROW EXECUTE FUNCTION counterparty_history_append_only();
--> statement-breakpoint
CREATE TRIGGER counterparty_history_no_truncate BEFORE TRUNCATE ON counterparty_history
  FOR EACH STATEMENT EXECUTE FUNCTION counterparty_history_append_only();
