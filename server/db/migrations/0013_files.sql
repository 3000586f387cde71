CREATE TABLE "file_deletions" (
	"tenant_id" integer NOT NULL,
	"storage_key" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_deletions_tenant_id_storage_key_pk" PRIMARY KEY("tenant_id","storage_key")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"name_sort" text GENERATED ALWAYS AS (translate("name", 'αοιετσνηυρπκμλάέίόήύώωγδθχφβξζψς eaionrtslcudpmhgbfywkvxzjq-.0123456789@_ΆΈΉΊΌΎΏΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫΰϊϋABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞàáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'αοιετσνηυρπκμλαειοηυωωγδθχφβξζψσ eaionrtslcudpmhgbfywkvxzjq-.0123456789@_αεηιουωιαβγδεζηθικλμνξοπρστυφχψωιυυιυabcdefghijklmnopqrstuvwxyzaaaaaaæceeeeiiiiðnoooooøuuuuyþaaaaaaceeeeiiiinooooouuuuyy')) STORED,
	"folder_id" integer,
	"size" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"uploaded_by" text,
	"uploaded_by_id" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "folders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"parent_id" integer,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "folders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "file_deletions" ADD CONSTRAINT "file_deletions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_tenant_id_folder_id_folders_tenant_id_id_fk" FOREIGN KEY ("tenant_id","folder_id") REFERENCES "public"."folders"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_tenant_id_parent_id_folders_tenant_id_id_fk" FOREIGN KEY ("tenant_id","parent_id") REFERENCES "public"."folders"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_folder_idx" ON "files" USING btree ("tenant_id","folder_id");--> statement-breakpoint
CREATE INDEX "folders_parent_idx" ON "folders" USING btree ("tenant_id","parent_id");