CREATE TABLE "attendance" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "attendance_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"lesson_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"marked_by" integer,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attendance_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "guardians" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "guardians_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"relation" text DEFAULT 'GUARDIAN' NOT NULL,
	"phone" text,
	"email" text,
	"address" text,
	"city" text,
	"postal_code" text,
	"tax_id" text,
	"notify" boolean DEFAULT true NOT NULL,
	"portal" boolean DEFAULT false NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"first_name_sort" text GENERATED ALWAYS AS (translate("first_name", 'αοιετσνηυρπκμλάέίόήύώωγδθχφβξζψς eaionrtslcudpmhgbfywkvxzjq-.0123456789@_ΆΈΉΊΌΎΏΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫΰϊϋABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞàáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'αοιετσνηυρπκμλαειοηυωωγδθχφβξζψσ eaionrtslcudpmhgbfywkvxzjq-.0123456789@_αεηιουωιαβγδεζηθικλμνξοπρστυφχψωιυυιυabcdefghijklmnopqrstuvwxyzaaaaaaæceeeeiiiiðnoooooøuuuuyþaaaaaaceeeeiiiinooooouuuuyy')) STORED,
	"last_name_sort" text GENERATED ALWAYS AS (translate("last_name", 'αοιετσνηυρπκμλάέίόήύώωγδθχφβξζψς eaionrtslcudpmhgbfywkvxzjq-.0123456789@_ΆΈΉΊΌΎΏΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫΰϊϋABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞàáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'αοιετσνηυρπκμλαειοηυωωγδθχφβξζψσ eaionrtslcudpmhgbfywkvxzjq-.0123456789@_αεηιουωιαβγδεζηθικλμνξοπρστυφχψωιυυιυabcdefghijklmnopqrstuvwxyzaaaaaaæceeeeiiiiðnoooooøuuuuyþaaaaaaceeeeiiiinooooouuuuyy')) STORED,
	"email_sort" text GENERATED ALWAYS AS (translate("email", 'αοιετσνηυρπκμλάέίόήύώωγδθχφβξζψς eaionrtslcudpmhgbfywkvxzjq-.0123456789@_ΆΈΉΊΌΎΏΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫΰϊϋABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞàáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'αοιετσνηυρπκμλαειοηυωωγδθχφβξζψσ eaionrtslcudpmhgbfywkvxzjq-.0123456789@_αεηιουωιαβγδεζηθικλμνξοπρστυφχψωιυυιυabcdefghijklmnopqrstuvwxyzaaaaaaæceeeeiiiiðnoooooøuuuuyþaaaaaaceeeeiiiinooooouuuuyy')) STORED,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guardians_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"recipient" text NOT NULL,
	"guardian_id" integer,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"deliver_after" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "student_guardians" (
	"tenant_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"guardian_id" integer NOT NULL,
	CONSTRAINT "student_guardians_tenant_id_student_id_guardian_id_pk" PRIMARY KEY("tenant_id","student_id","guardian_id")
);
--> statement-breakpoint
CREATE TABLE "centre_settings" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"legal_name" text,
	"tax_id" text,
	"tax_office" text,
	"address" text,
	"city" text,
	"postal_code" text,
	"phone" text,
	"email" text,
	"receipt_series" text DEFAULT 'Α' NOT NULL,
	"mydata_enabled" boolean DEFAULT false NOT NULL,
	"mydata_user_id" text,
	"mydata_subscription_key" text,
	"reminder_day" integer DEFAULT 10 NOT NULL,
	"reminder_repeat_days" integer DEFAULT 7 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_payments" (
	"tenant_id" integer NOT NULL,
	"receipt_id" integer NOT NULL,
	"payment_id" integer NOT NULL,
	CONSTRAINT "receipt_payments_tenant_id_receipt_id_payment_id_pk" PRIMARY KEY("tenant_id","receipt_id","payment_id")
);
--> statement-breakpoint
CREATE TABLE "receipt_series" (
	"tenant_id" integer NOT NULL,
	"series" text NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "receipt_series_tenant_id_series_pk" PRIMARY KEY("tenant_id","series")
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "receipts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"series" text NOT NULL,
	"number" integer NOT NULL,
	"issued_on" date NOT NULL,
	"kind" text DEFAULT 'RECEIPT' NOT NULL,
	"issuer" jsonb NOT NULL,
	"payer" jsonb NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"amount" integer NOT NULL,
	"method" text DEFAULT 'CASH' NOT NULL,
	"status" text DEFAULT 'ISSUED' NOT NULL,
	"mark" text,
	"uid" text,
	"qr_url" text,
	"error" text,
	"cancels_receipt_id" integer,
	"cancel_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "receipts_number_check" CHECK ("receipts"."number" > 0)
);
--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "payer_guardian_id" integer;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "discount_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "status" text DEFAULT 'ACTIVE' NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "withdrawn_on" date;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "withdrawal_reason" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "reminders_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_tenant_id_lesson_id_lessons_tenant_id_id_fk" FOREIGN KEY ("tenant_id","lesson_id") REFERENCES "public"."lessons"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_tenant_id_student_id_students_tenant_id_id_fk" FOREIGN KEY ("tenant_id","student_id") REFERENCES "public"."students"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardians" ADD CONSTRAINT "guardians_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_tenant_id_guardian_id_guardians_tenant_id_id_fk" FOREIGN KEY ("tenant_id","guardian_id") REFERENCES "public"."guardians"("tenant_id","id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_guardians" ADD CONSTRAINT "student_guardians_tenant_id_student_id_students_tenant_id_id_fk" FOREIGN KEY ("tenant_id","student_id") REFERENCES "public"."students"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_guardians" ADD CONSTRAINT "student_guardians_tenant_id_guardian_id_guardians_tenant_id_id_fk" FOREIGN KEY ("tenant_id","guardian_id") REFERENCES "public"."guardians"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "centre_settings" ADD CONSTRAINT "centre_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_payments" ADD CONSTRAINT "receipt_payments_tenant_id_receipt_id_receipts_tenant_id_id_fk" FOREIGN KEY ("tenant_id","receipt_id") REFERENCES "public"."receipts"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_payments" ADD CONSTRAINT "receipt_payments_tenant_id_payment_id_payments_tenant_id_id_fk" FOREIGN KEY ("tenant_id","payment_id") REFERENCES "public"."payments"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_series" ADD CONSTRAINT "receipt_series_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_tenant_id_cancels_receipt_id_receipts_tenant_id_id_fk" FOREIGN KEY ("tenant_id","cancels_receipt_id") REFERENCES "public"."receipts"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_lesson_student_key" ON "attendance" USING btree ("tenant_id","lesson_id","student_id");--> statement-breakpoint
CREATE INDEX "attendance_student_idx" ON "attendance" USING btree ("tenant_id","student_id","lesson_id");--> statement-breakpoint
CREATE INDEX "attendance_absent_idx" ON "attendance" USING btree ("tenant_id","lesson_id") WHERE "attendance"."status" = 'ABSENT';--> statement-breakpoint
CREATE INDEX "guardians_name_sort_idx" ON "guardians" USING btree ("tenant_id",("last_name_sort" collate "C"),("first_name_sort" collate "C"));--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_dedupe_key" ON "outbox" USING btree ("tenant_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("tenant_id","deliver_after") WHERE "outbox"."sent_at" is null and "outbox"."cancelled_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_guardian_idx" ON "outbox" USING btree ("tenant_id","guardian_id","created_at");--> statement-breakpoint
CREATE INDEX "student_guardians_guardian_idx" ON "student_guardians" USING btree ("tenant_id","guardian_id");--> statement-breakpoint
CREATE INDEX "receipt_payments_payment_idx" ON "receipt_payments" USING btree ("tenant_id","payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_number_key" ON "receipts" USING btree ("tenant_id","series","number");--> statement-breakpoint
CREATE INDEX "receipts_issued_idx" ON "receipts" USING btree ("tenant_id","issued_on","id");--> statement-breakpoint
CREATE INDEX "receipts_unsent_idx" ON "receipts" USING btree ("tenant_id","next_attempt_at") WHERE "receipts"."status" = 'ISSUED';--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_cancels_key" ON "receipts" USING btree ("tenant_id","cancels_receipt_id");--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_tenant_id_payer_guardian_id_guardians_tenant_id_id_fk" FOREIGN KEY ("tenant_id","payer_guardian_id") REFERENCES "public"."guardians"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contracts_payer_idx" ON "contracts" USING btree ("tenant_id","payer_guardian_id");--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_discount_check" CHECK ("contracts"."discount_percent" between 0 and 100);--> statement-breakpoint
-- A student's guardian was two text fields (guardian_name, guardian_phone); each becomes a
-- guardian linked to the student. Students with the same guardian name (case and spacing
-- aside) and phone in a centre are siblings and share one guardian. A one-word name is a first
-- name (the family name is taken from the student); a phone without a name gets the first
-- name "Κηδεμόνας". Each new guardian is found again by a marker held in its search column
-- until the links are made, so two families never merge. The old columns are dropped later.
CREATE TEMP TABLE legacy_guardians AS
SELECT tenant_id, id AS student_id, last_name AS student_last_name,
       nullif(regexp_replace(btrim(coalesce(guardian_name, '')), '\s+', ' ', 'g'), '') AS name,
       nullif(btrim(coalesce(guardian_phone, '')), '') AS phone
FROM students
WHERE nullif(btrim(coalesce(guardian_name, '')), '') IS NOT NULL OR nullif(btrim(coalesce(guardian_phone, '')), '') IS NOT NULL;
--> statement-breakpoint
CREATE TEMP TABLE legacy_families AS
SELECT 'legacy-guardian:' || row_number() OVER (ORDER BY tenant_id, first_student) AS marker, *
FROM (
  SELECT DISTINCT ON (tenant_id, lower(coalesce(name, '')), coalesce(phone, ''))
         tenant_id, lower(coalesce(name, '')) AS name_key, coalesce(phone, '') AS phone_key, phone,
         CASE WHEN name IS NULL THEN 'Κηδεμόνας' ELSE split_part(name, ' ', 1) END AS first_name,
         CASE WHEN name IS NOT NULL AND position(' ' in name) > 0 THEN substr(name, position(' ' in name) + 1) ELSE student_last_name END AS last_name,
         student_id AS first_student
  FROM legacy_guardians
  ORDER BY tenant_id, lower(coalesce(name, '')), coalesce(phone, ''), student_id
) f;
--> statement-breakpoint
INSERT INTO guardians (tenant_id, first_name, last_name, relation, phone, search)
SELECT tenant_id, first_name, last_name, 'GUARDIAN', phone, marker
FROM legacy_families ORDER BY tenant_id, first_student;
--> statement-breakpoint
INSERT INTO student_guardians (tenant_id, student_id, guardian_id)
SELECT DISTINCT l.tenant_id, l.student_id, g.id
FROM legacy_guardians l
JOIN legacy_families f ON f.tenant_id = l.tenant_id AND f.name_key = lower(coalesce(l.name, '')) AND f.phone_key = coalesce(l.phone, '')
JOIN guardians g ON g.tenant_id = f.tenant_id AND g.search = f.marker;
--> statement-breakpoint
UPDATE guardians g
SET search = regexp_replace(btrim(translate(lower(concat_ws(' ', g.first_name, g.last_name, g.phone)), 'αοιετσνηυρπκμλάέίόήύώωγδθχφβξζψς eaionrtslcudpmhgbfywkvxzjq-.0123456789@_ΆΈΉΊΌΎΏΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫΰϊϋABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞàáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'αοιετσνηυρπκμλαειοηυωωγδθχφβξζψσ eaionrtslcudpmhgbfywkvxzjq-.0123456789@_αεηιουωιαβγδεζηθικλμνξοπρστυφχψωιυυιυabcdefghijklmnopqrstuvwxyzaaaaaaæceeeeiiiiðnoooooøuuuuyþaaaaaaceeeeiiiinooooouuuuyy')), '\s+', ' ', 'g')
FROM legacy_families f
WHERE g.tenant_id = f.tenant_id AND g.search = f.marker;
--> statement-breakpoint
DROP TABLE legacy_guardians, legacy_families;
