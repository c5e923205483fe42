CREATE TABLE "forecast_manual_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"date" date NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"company_id" text NOT NULL,
	"category" text NOT NULL,
	"recurrence" text NOT NULL,
	"end_date" date,
	"note" text,
	"owner" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forecast_manual_lines_recurrence" CHECK ("forecast_manual_lines"."recurrence" in ('once', 'weekly', 'monthly', 'quarterly')),
	CONSTRAINT "forecast_manual_lines_currency" CHECK ("forecast_manual_lines"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "forecast_manual_lines_end" CHECK ("forecast_manual_lines"."end_date" is null or "forecast_manual_lines"."end_date" >= "forecast_manual_lines"."date")
);
--> statement-breakpoint
CREATE TABLE "forecast_scenarios" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team" text NOT NULL,
	"name" text NOT NULL,
	"adjustments" jsonb NOT NULL,
	"owner" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forecast_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "forecast_manual_lines_date" ON "forecast_manual_lines" USING btree ("date");--> statement-breakpoint
CREATE UNIQUE INDEX "forecast_scenarios_team_name" ON "forecast_scenarios" USING btree ("team","name");