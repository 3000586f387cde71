-- The calendar's revision per centre: one more on every statement that writes lessons
-- or the rows their labels show. Statement-level, so a series of 500 lessons counts once; the
-- centre is the one the transaction is set to (withTenant sets app.tenant_id), so writes
-- outside a centre (migrations, the platform) leave it alone.
GRANT SELECT, INSERT, UPDATE ON calendar_revisions TO frontis_app;
--> statement-breakpoint
ALTER TABLE calendar_revisions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE calendar_revisions FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON calendar_revisions
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
CREATE FUNCTION bump_calendar_revision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant int := nullif(current_setting('app.tenant_id', true), '')::int;
BEGIN
  IF tenant IS NOT NULL THEN
    INSERT INTO calendar_revisions AS r (tenant_id, revision) VALUES (tenant, 1)
      ON CONFLICT (tenant_id) DO UPDATE SET revision = r.revision + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lessons_calendar_revision AFTER INSERT OR UPDATE OR DELETE ON lessons FOR EACH STATEMENT EXECUTE FUNCTION bump_calendar_revision();
--> statement-breakpoint
CREATE TRIGGER teachers_calendar_revision AFTER INSERT OR UPDATE OR DELETE ON teachers FOR EACH STATEMENT EXECUTE FUNCTION bump_calendar_revision();
--> statement-breakpoint
CREATE TRIGGER subjects_calendar_revision AFTER INSERT OR UPDATE OR DELETE ON subjects FOR EACH STATEMENT EXECUTE FUNCTION bump_calendar_revision();
--> statement-breakpoint
CREATE TRIGGER rooms_calendar_revision AFTER INSERT OR UPDATE OR DELETE ON rooms FOR EACH STATEMENT EXECUTE FUNCTION bump_calendar_revision();
--> statement-breakpoint
CREATE TRIGGER classes_calendar_revision AFTER INSERT OR UPDATE OR DELETE ON classes FOR EACH STATEMENT EXECUTE FUNCTION bump_calendar_revision();
--> statement-breakpoint
CREATE TRIGGER lesson_types_calendar_revision AFTER INSERT OR UPDATE OR DELETE ON lesson_types FOR EACH STATEMENT EXECUTE FUNCTION bump_calendar_revision();
