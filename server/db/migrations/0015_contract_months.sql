CREATE TABLE "contract_months" (
	"tenant_id" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"month" text NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"income_w" bigint DEFAULT 0 NOT NULL,
	"income_wo" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "contract_months_tenant_id_contract_id_month_pk" PRIMARY KEY("tenant_id","contract_id","month")
);
--> statement-breakpoint
ALTER TABLE "contract_months" ADD CONSTRAINT "contract_months_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_months" ADD CONSTRAINT "contract_months_tenant_id_contract_id_contracts_tenant_id_id_fk" FOREIGN KEY ("tenant_id","contract_id") REFERENCES "public"."contracts"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_months_month_idx" ON "contract_months" USING btree ("tenant_id","month","contract_id","paid","income_w","income_wo");