CREATE TABLE "import_jobs" (
	"tenant_id" integer NOT NULL,
	"id" text NOT NULL,
	"starter" text NOT NULL,
	"path" text NOT NULL,
	"status" text DEFAULT 'checking' NOT NULL,
	"total" integer NOT NULL,
	"checked" integer DEFAULT 0 NOT NULL,
	"created_ids" integer[] DEFAULT '{}' NOT NULL,
	"report" jsonb,
	"error" jsonb,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_jobs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_jobs_created_idx" ON "import_jobs" USING btree ("tenant_id","created_at");