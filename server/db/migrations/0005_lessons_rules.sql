-- Lessons' rules the schema cannot declare: no room, teacher or class holds two
-- overlapping NORMAL lessons, enforced by exclusion constraints so that
-- concurrent bookings cannot both win; then row-level security as 0003 does for the directory.
-- Times are half-open ([start, end)): 17:00-18:00 and 18:00-19:00 do not clash.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE lessons ADD CONSTRAINT lessons_room_overlap EXCLUDE USING gist (
  tenant_id WITH =, room_id WITH =, tsrange(date + start_time, date + end_time) WITH &&
) WHERE (status = 'NORMAL' AND room_id IS NOT NULL);
--> statement-breakpoint
ALTER TABLE lessons ADD CONSTRAINT lessons_teacher_overlap EXCLUDE USING gist (
  tenant_id WITH =, teacher_id WITH =, tsrange(date + start_time, date + end_time) WITH &&
) WHERE (status = 'NORMAL' AND teacher_id IS NOT NULL);
--> statement-breakpoint
ALTER TABLE lessons ADD CONSTRAINT lessons_class_overlap EXCLUDE USING gist (
  tenant_id WITH =, class_id WITH =, tsrange(date + start_time, date + end_time) WITH &&
) WHERE (status = 'NORMAL' AND class_id IS NOT NULL);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON recurring_lessons, lessons, lesson_tag_links, recurring_lesson_tag_links, calendar_feeds TO frontis_app;
--> statement-breakpoint
GRANT USAGE, SELECT ON SEQUENCE recurring_lessons_id_seq, lessons_id_seq TO frontis_app;
--> statement-breakpoint
ALTER TABLE recurring_lessons ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE recurring_lessons FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON recurring_lessons
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE lessons ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE lessons FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lessons
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE lesson_tag_links ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE lesson_tag_links FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lesson_tag_links
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE recurring_lesson_tag_links ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE recurring_lesson_tag_links FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON recurring_lesson_tag_links
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE calendar_feeds ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE calendar_feeds FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON calendar_feeds
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
