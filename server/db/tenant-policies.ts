import { sql } from 'drizzle-orm';

/**
 * Row-level security is derived from the schema, not written per table: every table with a
 * NOT NULL tenant_id column is tenant data, so after the migrations each such table gets the
 * grants for frontis_app, ENABLE + FORCE ROW LEVEL SECURITY and the tenant_isolation policy.
 * A new tenant table therefore cannot be forgotten. Platform tables that merely mention a
 * tenant (login attempts, whose tenant may be unknown) keep tenant_id nullable and stay out.
 * Idempotent: run after every migration, on both engines.
 */
export const TENANT_POLICIES = sql.raw(`
DO $$
DECLARE
  r record;
  seq text;
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
    IF NOT EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = r.oid AND p.polname = 'tenant_isolation') THEN
      EXECUTE format('CREATE POLICY tenant_isolation ON %I '
        'USING (tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::int) '
        'WITH CHECK (tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::int)', r.relname);
    END IF;
  END LOOP;
END
$$;
`);
