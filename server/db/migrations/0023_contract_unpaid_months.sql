-- A month's unpaid contracts with their figures, counted from the primary key alone: it
-- carries the figures (INCLUDE), which drizzle's schema cannot say.
CREATE TABLE "contract_unpaid_months" (
	"tenant_id" integer NOT NULL,
	"month" text NOT NULL,
	"contract_id" integer NOT NULL,
	"total_cost" bigint DEFAULT 0 NOT NULL,
	"total_paid" bigint DEFAULT 0 NOT NULL,
	"rest" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "contract_unpaid_months_tenant_id_month_contract_id_pk" PRIMARY KEY("tenant_id","month","contract_id") INCLUDE ("total_cost","total_paid","rest")
);
--> statement-breakpoint
ALTER TABLE "contract_unpaid_months" ADD CONSTRAINT "contract_unpaid_months_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;