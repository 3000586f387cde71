CREATE TABLE "money_revisions" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "money_revisions" ADD CONSTRAINT "money_revisions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The money's revision per centre: one more on every statement that writes what the account
-- and the analytics read. Statement-level, so an import of 500 contracts counts once. The
-- centre is the one the transaction is set to (withTenant sets app.tenant_id); a write outside
-- any centre (a migration, a script as the database owner) moves every centre's revision it
-- can see, so no kept report outlives it.
CREATE FUNCTION bump_money_revision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant int := nullif(current_setting('app.tenant_id', true), '')::int;
BEGIN
  IF tenant IS NOT NULL THEN
    INSERT INTO money_revisions AS r (tenant_id, revision) VALUES (tenant, 1)
      ON CONFLICT (tenant_id) DO UPDATE SET revision = r.revision + 1;
  ELSE
    UPDATE money_revisions SET revision = revision + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contracts_money_revision AFTER INSERT OR UPDATE OR DELETE ON contracts FOR EACH STATEMENT EXECUTE FUNCTION bump_money_revision();
--> statement-breakpoint
CREATE TRIGGER contract_months_money_revision AFTER INSERT OR UPDATE OR DELETE ON contract_months FOR EACH STATEMENT EXECUTE FUNCTION bump_money_revision();
--> statement-breakpoint
CREATE TRIGGER payments_money_revision AFTER INSERT OR UPDATE OR DELETE ON payments FOR EACH STATEMENT EXECUTE FUNCTION bump_money_revision();
--> statement-breakpoint
CREATE TRIGGER expenses_money_revision AFTER INSERT OR UPDATE OR DELETE ON expenses FOR EACH STATEMENT EXECUTE FUNCTION bump_money_revision();
--> statement-breakpoint
CREATE TRIGGER contract_categories_money_revision AFTER INSERT OR UPDATE OR DELETE ON contract_categories FOR EACH STATEMENT EXECUTE FUNCTION bump_money_revision();
--> statement-breakpoint
CREATE TRIGGER classes_money_revision AFTER INSERT OR UPDATE OR DELETE ON classes FOR EACH STATEMENT EXECUTE FUNCTION bump_money_revision();
--> statement-breakpoint
CREATE TRIGGER class_students_money_revision AFTER INSERT OR UPDATE OR DELETE ON class_students FOR EACH STATEMENT EXECUTE FUNCTION bump_money_revision();
--> statement-breakpoint
CREATE TRIGGER students_money_revision AFTER INSERT OR UPDATE OR DELETE ON students FOR EACH STATEMENT EXECUTE FUNCTION bump_money_revision();
