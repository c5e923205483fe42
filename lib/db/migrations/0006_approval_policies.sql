CREATE TABLE "approval_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"company_id" uuid,
	"currency" text,
	"amount_currency" text,
	"min_amount" numeric,
	"max_amount" numeric,
	"risk" jsonb,
	"required_approvals" integer NOT NULL,
	"eligible_roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"eligible_group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_policies_required" CHECK ("approval_policies"."required_approvals" between 1 and 10),
	CONSTRAINT "approval_policies_currency" CHECK ("approval_policies"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "approval_policies_amount_currency" CHECK ("approval_policies"."amount_currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
CREATE TABLE "approver_group_members" (
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "approver_group_members_pkey" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "approver_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approver_groups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "batch_policy" (
	"batch_id" text PRIMARY KEY NOT NULL,
	"company_id" uuid,
	"rule" jsonb NOT NULL,
	"explanation" text NOT NULL,
	"required_count" integer NOT NULL,
	"eligible" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_approvals" (
	"approval_id" text NOT NULL,
	"batch_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"user_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"forward" boolean DEFAULT false NOT NULL,
	"upstream_key" text NOT NULL,
	"body" jsonb NOT NULL,
	"forwarded_at" timestamp with time zone,
	CONSTRAINT "pending_approvals_pkey" PRIMARY KEY("approval_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_sso_all_or_none";--> statement-breakpoint
ALTER TABLE "approver_group_members" ADD CONSTRAINT "approver_group_members_group_id_approver_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."approver_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approver_group_members" ADD CONSTRAINT "approver_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_policies_position" ON "approval_policies" USING btree ("position");--> statement-breakpoint
CREATE INDEX "pending_approvals_batch" ON "pending_approvals" USING btree ("batch_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sso_all_or_none" CHECK (("users"."sso_issuer" is null and "users"."sso_subject" is null and "users"."sso_linked_at" is null) or ("users"."sso_issuer" is
        not null and "users"."sso_subject" is not null and "users"."sso_linked_at" is not null));--> statement-breakpoint
-- The default policy: the four-eyes rule as it was (two approvals from 100,000), stated in EUR; any approver.
INSERT INTO "approval_policies" ("position", "name", "amount_currency", "min_amount", "required_approvals", "eligible_roles") VALUES (1, 'Large payments', 'EUR', 100000, 2, '["approver"]'::jsonb);--> statement-breakpoint
INSERT INTO "approval_policies" ("position", "name", "required_approvals", "eligible_roles") VALUES (2, 'Default', 1, '["approver"]'::jsonb);
