ALTER TABLE "guardians" ADD COLUMN "notify_by" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "channel" text DEFAULT 'EMAIL' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "status" text DEFAULT 'QUEUED' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "centre_settings" ADD COLUMN "sms_sender" text;--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "outbox" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_provider_key" ON "outbox" USING btree ("tenant_id","provider_id");--> statement-breakpoint
UPDATE "outbox" SET "status" = 'SENT' WHERE "sent_at" IS NOT NULL;--> statement-breakpoint
UPDATE "guardians" SET "notify_by" = CASE WHEN coalesce(trim("email"), '') <> '' THEN 'EMAIL' ELSE 'SMS' END;
