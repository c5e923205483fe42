CREATE TABLE "pending_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"direction" text NOT NULL,
	"expected_date" date NOT NULL,
	"account_servicer_ref" text,
	"end_to_end_id" text,
	"counterparty_name" text DEFAULT '' NOT NULL,
	"remittance" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "intraday_points" ADD COLUMN "source" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_entries" ADD CONSTRAINT "pending_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pending_entries_dedupe" ON "pending_entries" USING btree ("account_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "pending_entries_account_date" ON "pending_entries" USING btree ("account_id","expected_date");