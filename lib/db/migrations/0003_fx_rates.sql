CREATE TABLE "fx_rates" (
	"rate_date" date NOT NULL,
	"base" text NOT NULL,
	"quote" text NOT NULL,
	"rate" numeric NOT NULL,
	"source" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_rates_pkey" PRIMARY KEY("base","quote","rate_date"),
	CONSTRAINT "fx_rates_codes" CHECK ("fx_rates"."base" ~ '^[A-Z]{3}$' and "fx_rates"."quote" ~ '^[A-Z]{3}$' and "fx_rates"."base" <> "fx_rates"."quote"),
	CONSTRAINT "fx_rates_rate_positive" CHECK ("fx_rates"."rate" > 0),
	CONSTRAINT "fx_rates_source_present" CHECK (length("fx_rates"."source") > 0)
);
--> statement-breakpoint
CREATE TABLE "user_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"reporting_currency" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_preferences_reporting_currency" CHECK ("user_preferences"."reporting_currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "user_preferences" ADD CONSTRAINT "user_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;