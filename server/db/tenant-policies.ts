import { sql } from 'drizzle-orm';

/**
 * Row-level security is derived from the schema, not written per table: every table with a
 * NOT NULL tenant_id column is tenant data, so after the migrations each such table gets the
 * grants for frontis_app, ENABLE + FORCE ROW LEVEL SECURITY and the tenant_isolation policy.
 * A new tenant table therefore cannot be forgotten. A policy of an earlier form is brought to
 * the current one. Platform tables that merely mention a
 * tenant (login attempts, whose tenant may be unknown) keep tenant_id nullable and stay out.
 * Idempotent: run after every migration, on both engines.
 */
export const TENANT_POLICIES = sql.raw(`
DO $$
DECLARE
  r record;
  seq text;
  expr text;
  -- The centre of the transaction (withTenant), read once per statement as an InitPlan rather
  -- than once per row, so it also serves as an index condition: a count over thousands of a
  -- centre's rows does not call current_setting() for each.
  rule text := 'tenant_id = (select nullif(current_setting(''app.tenant_id'', true), '''')::int)';
BEGIN
  FOR r IN
    SELECT c.oid, c.relname, c.relrowsecurity, c.relforcerowsecurity
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind = 'r'
      AND EXISTS (SELECT 1 FROM pg_attribute a
                  WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND a.attnotnull AND NOT a.attisdropped)
  LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO frontis_app', r.relname);
    FOR seq IN
      SELECT pg_get_serial_sequence(format('%I', r.relname), a.attname)
      FROM pg_attribute a WHERE a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
        AND pg_get_serial_sequence(format('%I', r.relname), a.attname) IS NOT NULL
    LOOP
      EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %s TO frontis_app', seq);
    END LOOP;
    IF NOT r.relrowsecurity THEN
      EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', r.relname);
    END IF;
    IF NOT r.relforcerowsecurity THEN
      EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', r.relname);
    END IF;
    SELECT pg_get_expr(p.polqual, p.polrelid) INTO expr FROM pg_policy p WHERE p.polrelid = r.oid AND p.polname = 'tenant_isolation';
    IF NOT FOUND THEN
      EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (%s) WITH CHECK (%s)', r.relname, rule, rule);
    ELSIF position('SELECT' in expr) = 0 THEN
      -- The earlier form read the setting once per row; the subquery reads it once per statement.
      EXECUTE format('ALTER POLICY tenant_isolation ON %I USING (%s) WITH CHECK (%s)', r.relname, rule, rule);
    END IF;
  END LOOP;
END
$$;
`);
