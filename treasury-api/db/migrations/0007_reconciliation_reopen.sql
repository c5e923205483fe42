CREATE TABLE "reconciliation_match_reopenings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"match_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"client_id" uuid NOT NULL,
	"reviewer" text,
	"reason" text,
	"confirmed_at" timestamp with time zone NOT NULL,
	"confirmed_by_client_id" uuid,
	"confirmed_reviewer" text,
	"confirmed_reason" text
);
--> statement-breakpoint
ALTER TABLE "reconciliation_match_reopenings" ADD CONSTRAINT "reconciliation_match_reopenings_match_id_reconciliation_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."reconciliation_matches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_match_reopenings_match" ON "reconciliation_match_reopenings" USING btree ("match_id","created_at");
