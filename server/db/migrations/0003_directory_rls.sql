-- Row-level security for the directory's tables, exactly as 0001 does for the
-- foundation's: GRANT to frontis_app, ENABLE + FORCE ROW LEVEL SECURITY, tenant_isolation.
GRANT SELECT, INSERT, UPDATE, DELETE ON subjects, rooms, class_categories, contract_categories, classes, class_subjects, lesson_types, lesson_tags, teachers, teacher_subjects, students, class_students, student_subjects, student_custom_fields, notes TO frontis_app;
--> statement-breakpoint
GRANT USAGE, SELECT ON SEQUENCE subjects_id_seq, rooms_id_seq, class_categories_id_seq, contract_categories_id_seq, classes_id_seq, lesson_types_id_seq, lesson_tags_id_seq, teachers_id_seq, students_id_seq, student_custom_fields_id_seq, notes_id_seq TO frontis_app;
--> statement-breakpoint
ALTER TABLE subjects ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE subjects FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON subjects
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE rooms ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE rooms FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON rooms
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE class_categories ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE class_categories FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON class_categories
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE contract_categories ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE contract_categories FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON contract_categories
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE classes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE classes FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON classes
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE class_subjects ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE class_subjects FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON class_subjects
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE lesson_types ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE lesson_types FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lesson_types
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE lesson_tags ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE lesson_tags FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lesson_tags
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE teachers ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE teachers FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON teachers
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE teacher_subjects ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE teacher_subjects FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON teacher_subjects
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE students ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE students FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON students
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE class_students ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE class_students FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON class_students
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE student_subjects ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE student_subjects FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON student_subjects
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE student_custom_fields ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE student_custom_fields FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON student_custom_fields
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
--> statement-breakpoint
ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE notes FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON notes
  USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int);
