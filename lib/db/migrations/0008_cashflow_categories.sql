CREATE TABLE "cashflow_category_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position" integer NOT NULL,
	"category" text NOT NULL,
	"counterparty_contains" text,
	"remittance_contains" text,
	"iban" text,
	"direction" text,
	"min_amount" numeric,
	"max_amount" numeric,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cashflow_category_rules_direction" CHECK ("cashflow_category_rules"."direction" in ('credit', 'debit'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "cashflow_category_rules_position" ON "cashflow_category_rules" USING btree ("position");