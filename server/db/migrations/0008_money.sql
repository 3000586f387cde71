CREATE TABLE "contracts" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "contracts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"student_id" integer NOT NULL,
	"category_id" integer,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"register_cost" integer DEFAULT 0 NOT NULL,
	"month_cost" integer NOT NULL,
	"with_receipt" boolean DEFAULT true NOT NULL,
	"notes" text,
	"month_count" integer DEFAULT 0 NOT NULL,
	"register_paid" bigint DEFAULT 0 NOT NULL,
	"extra_total" bigint DEFAULT 0 NOT NULL,
	"total_cost" bigint DEFAULT 0 NOT NULL,
	"total_paid" bigint DEFAULT 0 NOT NULL,
	"rest" bigint DEFAULT 0 NOT NULL,
	"is_register_paid" boolean DEFAULT false NOT NULL,
	"unpaid_months" text[] DEFAULT '{}'::text[] NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contracts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "contracts_dates_check" CHECK ("contracts"."end_date" >= "contracts"."start_date"),
	CONSTRAINT "contracts_costs_check" CHECK ("contracts"."register_cost" >= 0 and "contracts"."month_cost" >= 0)
);
--> statement-breakpoint
CREATE TABLE "expense_categories" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "expense_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expense_categories_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "expenses" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "expenses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"date" date NOT NULL,
	"amount" integer NOT NULL,
	"description" text,
	"category_id" integer,
	"method" text DEFAULT 'CASH' NOT NULL,
	"bill_number" text,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expenses_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "expenses_amount_check" CHECK ("expenses"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"tenant_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contract_id" integer NOT NULL,
	"kind" text NOT NULL,
	"month" text,
	"amount" integer NOT NULL,
	"method" text DEFAULT 'CASH' NOT NULL,
	"bill_number" text,
	"paid_on" date NOT NULL,
	"description" text,
	"search" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount" > 0),
	CONSTRAINT "payments_month_check" CHECK (("payments"."kind" = 'MONTHLY') = ("payments"."month" is not null))
);
--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_tenant_id_student_id_students_tenant_id_id_fk" FOREIGN KEY ("tenant_id","student_id") REFERENCES "public"."students"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_tenant_id_category_id_contract_categories_tenant_id_id_fk" FOREIGN KEY ("tenant_id","category_id") REFERENCES "public"."contract_categories"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_categories" ADD CONSTRAINT "expense_categories_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_tenant_id_category_id_expense_categories_tenant_id_id_fk" FOREIGN KEY ("tenant_id","category_id") REFERENCES "public"."expense_categories"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_tenant_id_contract_id_contracts_tenant_id_id_fk" FOREIGN KEY ("tenant_id","contract_id") REFERENCES "public"."contracts"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contracts_student_idx" ON "contracts" USING btree ("tenant_id","student_id","start_date");--> statement-breakpoint
CREATE INDEX "contracts_category_idx" ON "contracts" USING btree ("tenant_id","category_id");--> statement-breakpoint
CREATE INDEX "contracts_start_idx" ON "contracts" USING btree ("tenant_id","start_date");--> statement-breakpoint
CREATE INDEX "contracts_end_idx" ON "contracts" USING btree ("tenant_id","end_date");--> statement-breakpoint
CREATE INDEX "contracts_rest_idx" ON "contracts" USING btree ("tenant_id","rest");--> statement-breakpoint
CREATE INDEX "contracts_unpaid_months_idx" ON "contracts" USING gin ("unpaid_months");--> statement-breakpoint
CREATE INDEX "expense_categories_name_idx" ON "expense_categories" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "expenses_date_idx" ON "expenses" USING btree ("tenant_id","date");--> statement-breakpoint
CREATE INDEX "expenses_category_idx" ON "expenses" USING btree ("tenant_id","category_id");--> statement-breakpoint
CREATE INDEX "payments_contract_idx" ON "payments" USING btree ("tenant_id","contract_id","kind","month");--> statement-breakpoint
CREATE INDEX "payments_paid_on_idx" ON "payments" USING btree ("tenant_id","paid_on");--> statement-breakpoint
CREATE INDEX "payments_month_idx" ON "payments" USING btree ("tenant_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_bill_number_key" ON "payments" USING btree ("tenant_id","bill_number");