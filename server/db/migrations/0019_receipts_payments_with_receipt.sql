ALTER TABLE "payments" ADD COLUMN "with_receipt" boolean;--> statement-breakpoint
-- Payments recorded before receipts were issued: "with receipt" when a number was typed.
UPDATE "payments" SET "with_receipt" = ("bill_number" IS NOT NULL);
