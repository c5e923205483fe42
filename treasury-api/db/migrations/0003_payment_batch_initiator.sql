-- Four-eyes at API level: the batch remembers who created it. Existing
-- batches get the public client_id of the OAuth client that created them,
-- which is also what an approval without an approver counts as.
ALTER TABLE "payment_batches" ADD COLUMN "initiator" text;--> statement-breakpoint
UPDATE "payment_batches" b
SET "initiator" = coalesce((SELECT c."client_id" FROM "oauth_clients" c WHERE c."id" = b."created_by_client_id"), b."created_by_client_id"::text);--> statement-breakpoint
ALTER TABLE "payment_batches" ALTER COLUMN "initiator" SET NOT NULL;
