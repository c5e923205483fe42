CREATE TABLE "forecast_snapshots" (
	"iso_week" text NOT NULL,
	"company_id" text NOT NULL,
	"as_of" date NOT NULL,
	"forecast_to" date NOT NULL,
	"rows" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forecast_snapshots_pkey" PRIMARY KEY("iso_week","company_id")
);
