CREATE TABLE "reconciliation_auto_confirmations" (
	"match_id" uuid PRIMARY KEY NOT NULL,
	"rule_id" uuid NOT NULL,
	"rule_name" text NOT NULL,
	"company_id" uuid,
	"upstream_key" text NOT NULL,
	"state" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"error" text,
	"undone_at" timestamp with time zone,
	"undone_by" text,
	CONSTRAINT "reconciliation_auto_confirmations_state" CHECK ("reconciliation_auto_confirmations"."state" in ('pending', 'confirmed', 'failed', 'undone'))
);
--> statement-breakpoint
CREATE TABLE "reconciliation_auto_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"min_score" integer NOT NULL,
	"exact_amount" boolean DEFAULT true NOT NULL,
	"end_to_end_id" boolean DEFAULT true NOT NULL,
	"company_id" uuid,
	"currency" text,
	"max_amount" numeric,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliation_auto_rules_min_score" CHECK ("reconciliation_auto_rules"."min_score" between 0 and 100)
);
--> statement-breakpoint
CREATE INDEX "reconciliation_auto_confirmations_state" ON "reconciliation_auto_confirmations" USING btree ("state");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_auto_rules_name" ON "reconciliation_auto_rules" USING btree (lower("name"));