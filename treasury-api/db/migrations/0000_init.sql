CREATE TABLE "access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"form" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_day_flows" (
	"account_id" uuid NOT NULL,
	"booked_date" date NOT NULL,
	"direction" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"tx_count" integer NOT NULL,
	"amount_sum" numeric NOT NULL,
	CONSTRAINT "account_day_flows_account_id_booked_date_direction_pk" PRIMARY KEY("account_id","booked_date","direction")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"bank_id" text NOT NULL,
	"external_ref" text NOT NULL,
	"external_ref_type" text DEFAULT 'IBAN' NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"bank_name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_decisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"approval_request_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"approver" text NOT NULL,
	"decision" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"object_type" text DEFAULT 'payment_batch' NOT NULL,
	"object_id" uuid NOT NULL,
	"state" text NOT NULL,
	"required_count" integer NOT NULL,
	"approved_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "balance_snapshots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"balance_type" text NOT NULL,
	"as_of_date" date NOT NULL,
	"balance" numeric NOT NULL,
	"currency" text NOT NULL,
	"source" text DEFAULT 'api' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"orgnr" text NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coverage_days" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"date" date NOT NULL,
	"source" text NOT NULL,
	"completeness" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"client_id" uuid NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"status_code" integer,
	"response_body" text,
	"response_headers" jsonb,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_client_id_key_pk" PRIMARY KEY("client_id","key")
);
--> statement-breakpoint
CREATE TABLE "intraday_points" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"balance" numeric NOT NULL,
	"currency" text NOT NULL,
	"balance_type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "koncern_members" (
	"koncern_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	CONSTRAINT "koncern_members_koncern_id_company_id_pk" PRIMARY KEY("koncern_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "koncerner" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_client_companies" (
	"client_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	CONSTRAINT "oauth_client_companies_client_id_company_id_pk" PRIMARY KEY("client_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_client_tenants" (
	"client_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	CONSTRAINT "oauth_client_tenants_client_id_tenant_id_pk" PRIMARY KEY("client_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_clients" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"form" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"allowed_scopes" text[] NOT NULL,
	"write_approved" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_clients_client_id_unique" UNIQUE("client_id")
);
--> statement-breakpoint
CREATE TABLE "payment_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"created_by_client_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"total_amount" numeric NOT NULL,
	"instruction_count" integer NOT NULL,
	"requested_execution_date" date,
	"submitted_at" timestamp with time zone,
	"bank_next_step_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_instructions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"batch_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"creditor_name" text NOT NULL,
	"creditor_iban" text NOT NULL,
	"end_to_end_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"transaction_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_status_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"instruction_id" uuid NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"subject" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_subject_window_start_pk" PRIMARY KEY("subject","window_start")
);
--> statement-breakpoint
CREATE TABLE "reconciliation_matches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"payment_instruction_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"state" text NOT NULL,
	"score" integer NOT NULL,
	"score_breakdown" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"direction" text NOT NULL,
	"booked_date" date NOT NULL,
	"booked_at" timestamp with time zone NOT NULL,
	"value_date" date NOT NULL,
	"value_at" timestamp with time zone NOT NULL,
	"counterparty_name" text DEFAULT '' NOT NULL,
	"remittance" text DEFAULT '' NOT NULL,
	"end_to_end_id" text,
	"source" text NOT NULL,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_attempts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"url" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" uuid,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"dispatched_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_approval_request_id_approval_requests_id_fk" FOREIGN KEY ("approval_request_id") REFERENCES "public"."approval_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_snapshots" ADD CONSTRAINT "balance_snapshots_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverage_days" ADD CONSTRAINT "coverage_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intraday_points" ADD CONSTRAINT "intraday_points_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "koncern_members" ADD CONSTRAINT "koncern_members_koncern_id_koncerner_id_fk" FOREIGN KEY ("koncern_id") REFERENCES "public"."koncerner"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "koncern_members" ADD CONSTRAINT "koncern_members_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "koncerner" ADD CONSTRAINT "koncerner_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_companies" ADD CONSTRAINT "oauth_client_companies_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_companies" ADD CONSTRAINT "oauth_client_companies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_tenants" ADD CONSTRAINT "oauth_client_tenants_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_tenants" ADD CONSTRAINT "oauth_client_tenants_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD CONSTRAINT "payment_batches_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_instructions" ADD CONSTRAINT "payment_instructions_batch_id_payment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payment_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_status_events" ADD CONSTRAINT "payment_status_events_instruction_id_payment_instructions_id_fk" FOREIGN KEY ("instruction_id") REFERENCES "public"."payment_instructions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_matches" ADD CONSTRAINT "reconciliation_matches_payment_instruction_id_payment_instructions_id_fk" FOREIGN KEY ("payment_instruction_id") REFERENCES "public"."payment_instructions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_matches" ADD CONSTRAINT "reconciliation_matches_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_tokens_expires" ON "access_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "account_day_flows_company" ON "account_day_flows" USING btree ("company_id","booked_date");--> statement-breakpoint
CREATE INDEX "account_day_flows_tenant" ON "account_day_flows" USING btree ("tenant_id","booked_date");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_identity" ON "accounts" USING btree ("tenant_id","bank_id","external_ref");--> statement-breakpoint
CREATE INDEX "accounts_company" ON "accounts" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "accounts_external_ref" ON "accounts" USING btree ("tenant_id","external_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_decisions_once" ON "approval_decisions" USING btree ("approval_request_id","approver");--> statement-breakpoint
CREATE INDEX "approval_requests_company" ON "approval_requests" USING btree ("company_id","state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_requests_object" ON "approval_requests" USING btree ("object_type","object_id");--> statement-breakpoint
CREATE UNIQUE INDEX "balance_snapshots_identity" ON "balance_snapshots" USING btree ("account_id","balance_type","as_of_date");--> statement-breakpoint
CREATE INDEX "balance_snapshots_company" ON "balance_snapshots" USING btree ("company_id","balance_type","as_of_date");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_tenant_orgnr" ON "companies" USING btree ("tenant_id","orgnr");--> statement-breakpoint
CREATE UNIQUE INDEX "coverage_days_identity" ON "coverage_days" USING btree ("account_id","date");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "intraday_points_account" ON "intraday_points" USING btree ("account_id","timestamp","id");--> statement-breakpoint
CREATE INDEX "payment_batches_company" ON "payment_batches" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_batches_bank" ON "payment_batches" USING btree ("status","bank_next_step_at");--> statement-breakpoint
CREATE INDEX "payment_instructions_batch" ON "payment_instructions" USING btree ("batch_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_instructions_e2e" ON "payment_instructions" USING btree ("batch_id","end_to_end_id");--> statement-breakpoint
CREATE INDEX "payment_status_events_company" ON "payment_status_events" USING btree ("company_id","occurred_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_status_events_once" ON "payment_status_events" USING btree ("instruction_id","status");--> statement-breakpoint
CREATE INDEX "reconciliation_matches_company" ON "reconciliation_matches" USING btree ("company_id","state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_matches_pair" ON "reconciliation_matches" USING btree ("payment_instruction_id","transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_matches_confirmed_tx" ON "reconciliation_matches" USING btree ("transaction_id") WHERE state = 'confirmed';--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_matches_confirmed_ins" ON "reconciliation_matches" USING btree ("payment_instruction_id") WHERE state = 'confirmed';--> statement-breakpoint
CREATE INDEX "transactions_company_order" ON "transactions" USING btree ("company_id","booked_date","booked_at","id");--> statement-breakpoint
CREATE INDEX "transactions_tenant_order" ON "transactions" USING btree ("tenant_id","booked_date","booked_at","id");--> statement-breakpoint
CREATE INDEX "transactions_account_order" ON "transactions" USING btree ("account_id","booked_date","booked_at","id");--> statement-breakpoint
CREATE INDEX "transactions_e2e" ON "transactions" USING btree ("company_id","end_to_end_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_dedupe" ON "transactions" USING btree ("account_id","dedupe_key");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_once" ON "webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_delivery" ON "webhook_delivery_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_client" ON "webhook_endpoints" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_undispatched" ON "webhook_events" USING btree ("dispatched_at","created_at");