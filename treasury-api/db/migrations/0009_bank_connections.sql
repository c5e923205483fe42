CREATE TABLE "bank_channel_outbox" (
	"batch_id" uuid PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"due_date" date NOT NULL,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_connection_accounts" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_connection_audit" (
	"id" uuid PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"fields" text[] NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_connection_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"result" jsonb,
	"batch_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_connections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"bank_name" text NOT NULL,
	"channel" text NOT NULL,
	"settings" jsonb NOT NULL,
	"secret" text,
	"after_import" text DEFAULT 'leave' NOT NULL,
	"archive_dir" text,
	"pull_interval_seconds" integer DEFAULT 300 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"next_pull_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"last_pull_at" timestamp with time zone,
	"last_pull_ok_at" timestamp with time zone,
	"last_push_ok_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_channel_outbox" ADD CONSTRAINT "bank_channel_outbox_batch_id_payment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payment_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_channel_outbox" ADD CONSTRAINT "bank_channel_outbox_connection_id_bank_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."bank_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_connection_accounts" ADD CONSTRAINT "bank_connection_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_connection_accounts" ADD CONSTRAINT "bank_connection_accounts_connection_id_bank_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."bank_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_connection_files" ADD CONSTRAINT "bank_connection_files_connection_id_bank_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."bank_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_connections" ADD CONSTRAINT "bank_connections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_channel_outbox_due" ON "bank_channel_outbox" USING btree ("sent_at","due_date");--> statement-breakpoint
CREATE INDEX "bank_connection_accounts_connection" ON "bank_connection_accounts" USING btree ("connection_id");--> statement-breakpoint
CREATE INDEX "bank_connection_audit_connection" ON "bank_connection_audit" USING btree ("connection_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_connection_files_once" ON "bank_connection_files" USING btree ("connection_id","direction","sha256");--> statement-breakpoint
CREATE INDEX "bank_connection_files_recent" ON "bank_connection_files" USING btree ("connection_id","created_at");--> statement-breakpoint
CREATE INDEX "bank_connections_company" ON "bank_connections" USING btree ("company_id","created_at","id");