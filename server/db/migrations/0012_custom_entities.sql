CREATE TABLE "custom_entities" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "custom_entities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"name_el" text NOT NULL,
	"name_en" text NOT NULL,
	"name_plural_el" text NOT NULL,
	"name_plural_en" text NOT NULL,
	"description" text,
	"icon" text,
	"sidebar_group" text,
	"fields" jsonb NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_entities_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "custom_records" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "custom_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entity_id" integer NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_records_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "custom_values" (
	"tenant_id" integer NOT NULL,
	"entity_id" integer NOT NULL,
	"record_id" integer NOT NULL,
	"key" text NOT NULL,
	"num" double precision,
	"txt" text
);
--> statement-breakpoint
ALTER TABLE "custom_entities" ADD CONSTRAINT "custom_entities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_records" ADD CONSTRAINT "custom_records_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_records" ADD CONSTRAINT "custom_records_tenant_id_entity_id_custom_entities_tenant_id_id_fk" FOREIGN KEY ("tenant_id","entity_id") REFERENCES "public"."custom_entities"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_values" ADD CONSTRAINT "custom_values_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_values" ADD CONSTRAINT "custom_values_tenant_id_record_id_custom_records_tenant_id_id_fk" FOREIGN KEY ("tenant_id","record_id") REFERENCES "public"."custom_records"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_entities_slug_key" ON "custom_entities" USING btree ("tenant_id","slug");--> statement-breakpoint
CREATE INDEX "custom_records_entity_idx" ON "custom_records" USING btree ("tenant_id","entity_id","id");--> statement-breakpoint
CREATE INDEX "custom_records_entity_created_idx" ON "custom_records" USING btree ("tenant_id","entity_id","created_at");--> statement-breakpoint
CREATE INDEX "custom_records_entity_updated_idx" ON "custom_records" USING btree ("tenant_id","entity_id","updated_at");--> statement-breakpoint
CREATE INDEX "custom_values_num_idx" ON "custom_values" USING btree ("tenant_id","entity_id","key","num","record_id");--> statement-breakpoint
CREATE INDEX "custom_values_txt_idx" ON "custom_values" USING btree ("tenant_id","entity_id","key",("txt" collate "C"),"record_id");--> statement-breakpoint
CREATE INDEX "custom_values_record_idx" ON "custom_values" USING btree ("tenant_id","record_id","key");