ALTER TABLE "users" ADD COLUMN "sso_issuer" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_subject" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_linked_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "users_sso_account" ON "users" USING btree ("sso_issuer","sso_subject");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sso_all_or_none" CHECK (("users"."sso_issuer" is null and "users"."sso_subject" is null and "users"."sso_linked_at" is null) or ("users"."sso_issuer" is not null and "users"."sso_subject" is not null and "users"."sso_linked_at" is not null));