-- Row-level security: the second wall between tenants (the first is withTenant() in the
-- data layer). Tenant data is only ever touched as the role frontis_app with
-- app.tenant_id set for the transaction; frontis_app is no superuser and cannot bypass RLS.
--
-- Every NEW tenant table needs the same three things as below: GRANT to frontis_app,
-- ENABLE + FORCE ROW LEVEL SECURITY, and the tenant_isolation policy
-- (tests/api/server-rls.test.ts fails when one is missing).

-- Roles are cluster-wide: another database on the same server (or a second process
-- migrating at the same moment) may already have created it, hence the guards.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frontis_app') THEN
    BEGIN
      CREATE ROLE frontis_app NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
END
$$;
--> statement-breakpoint
-- SET ROLE needs membership when the server connects as a non-superuser.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'frontis_app', 'MEMBER') THEN
    BEGIN
      EXECUTE format('GRANT frontis_app TO %I', current_user);
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO frontis_app;
--> statement-breakpoint
-- Platform tables frontis_app may read (joins and session checks); never password hashes.
GRANT SELECT ON tenants TO frontis_app;
--> statement-breakpoint
GRANT SELECT (id, username, first_name, last_name, email, phone, status) ON root_users TO frontis_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON users, sessions, refresh_tokens, history TO frontis_app;
--> statement-breakpoint
GRANT USAGE, SELECT ON SEQUENCE users_id_seq, sessions_id_seq, refresh_tokens_id_seq, history_id_seq TO frontis_app;
--> statement-breakpoint
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE users FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- nullif(..., ''): outside withTenant() the setting is unset or '' and the policy matches no row
-- (instead of failing on ''::int).
CREATE POLICY tenant_isolation ON users
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE sessions FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON sessions
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE refresh_tokens ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE refresh_tokens FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON refresh_tokens
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE history ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE history FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON history
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
