import { sql } from 'drizzle-orm';

/**
 * The wall between families, below the tenant wall: a guardian's portal requests run as role
 * frontis_guardian with app.tenant_id and app.guardian_id set (withFamily() in doors.ts). The
 * role is granted SELECT only on what the portal reads (and UPDATE on the guardian's own
 * contact details, INSERT of her own history), and every one of those tables gets a RESTRICTIVE
 * policy for frontis_guardian on top of tenant_isolation: only the rows of her own children and
 * what hangs off them. A query that forgets to narrow to her family therefore still sees
 * nothing of another family; a table not listed here is refused outright. Staff never run as
 * this role, so these policies never touch their queries.
 *
 * Each policy reads the tables it depends on through their own policies (a child is hers when
 * student_guardians, narrowed to her, links them), so the chain always ends at her guardian id.
 * Without app.guardian_id the id is null and every policy matches nothing.
 * Idempotent: run after every migration, on both engines, after the tenant policies.
 */

/** Her guardian id, or null outside a family transaction. */
const GUARDIAN = `nullif(current_setting('app.guardian_id', true), '')::int`;
/** The ids of her children (student_guardians is narrowed to her links). */
const CHILDREN = `(select sg.student_id from student_guardians sg where sg.guardian_id = ${GUARDIAN})`;

interface FamilyTable {
  table: string;
  /** What she may do: SELECT on the listed columns (all when omitted), and more where said. */
  grant: string;
  /** The rows of her family. */
  using: string;
  /** Only for a table she writes: what a written row must satisfy. */
  check?: string;
}

const TABLES: FamilyTable[] = [
  // Herself: read, and change her contact details and notice preference (version and updated_at
  // move with every write).
  {
    table: 'guardians',
    grant: 'SELECT, UPDATE (phone, address, city, postal_code, notify, notify_by, version, updated_at)',
    using: `id = ${GUARDIAN}`,
    check: `id = ${GUARDIAN}`,
  },
  { table: 'student_guardians', grant: 'SELECT', using: `guardian_id = ${GUARDIAN}` },
  { table: 'guardian_users', grant: 'SELECT', using: `guardian_id = ${GUARDIAN}` },
  // Her own sign-in, never its password hash.
  {
    table: 'users',
    grant: 'SELECT (tenant_id, id, username, role, first_name, last_name, email, status)',
    using: `id in (select gu.user_id from guardian_users gu where gu.guardian_id = ${GUARDIAN})`,
  },
  { table: 'students', grant: 'SELECT', using: `id in ${CHILDREN}` },
  { table: 'class_students', grant: 'SELECT', using: `student_id in ${CHILDREN}` },
  { table: 'classes', grant: 'SELECT (tenant_id, id, name)', using: `id in (select cs.class_id from class_students cs)` },
  // Her children's classes' lessons, and any lesson one of them was marked in: when and what,
  // with the homework, never the staff's notes.
  {
    table: 'lessons',
    grant: 'SELECT (tenant_id, id, date, start_time, end_time, teacher_id, subject_id, room_id, class_id, lesson_type_id, homework, status, kind)',
    using: `class_id in (select cs.class_id from class_students cs) or id in (select a.lesson_id from attendance a)`,
  },
  { table: 'attendance', grant: 'SELECT', using: `student_id in ${CHILDREN}` },
  // Names only, and only of what her children's lessons name.
  { table: 'subjects', grant: 'SELECT (tenant_id, id, name)', using: `id in (select l.subject_id from lessons l)` },
  { table: 'rooms', grant: 'SELECT (tenant_id, id, name)', using: `id in (select l.room_id from lessons l)` },
  { table: 'teachers', grant: 'SELECT (tenant_id, id, first_name, last_name)', using: `id in (select l.teacher_id from lessons l)` },
  { table: 'contracts', grant: 'SELECT', using: `student_id in ${CHILDREN}` },
  { table: 'contract_categories', grant: 'SELECT (tenant_id, id, name)', using: `id in (select c.category_id from contracts c)` },
  { table: 'payments', grant: 'SELECT', using: `contract_id in (select c.id from contracts c)` },
  { table: 'receipt_payments', grant: 'SELECT', using: `payment_id in (select p.id from payments p)` },
  { table: 'receipts', grant: 'SELECT', using: `id in (select rp.receipt_id from receipt_payments rp)` },
  // The Idempotency-Keys of her own writes (reserved in the write's transaction), read back on a retry.
  {
    table: 'idempotency_keys',
    grant: 'SELECT, INSERT',
    using: `actor in (select 'user:' || gu.user_id from guardian_users gu where gu.guardian_id = ${GUARDIAN})`,
    check: `actor in (select 'user:' || gu.user_id from guardian_users gu where gu.guardian_id = ${GUARDIAN})`,
  },
  // Her own changes to herself, written as her; never read back.
  {
    table: 'history',
    grant: 'INSERT',
    using: 'false',
    check: `entity = 'guardians' and entity_id = ${GUARDIAN} and not user_is_root
      and user_id in (select gu.user_id from guardian_users gu where gu.guardian_id = ${GUARDIAN})`,
  },
];

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

const tableStatements = (t: FamilyTable) => `
  EXECUTE ${quote(`GRANT ${t.grant} ON ${t.table} TO frontis_guardian`)};
  IF NOT EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = ${quote(t.table)}::regclass AND p.polname = 'family_isolation') THEN
    EXECUTE ${quote(`CREATE POLICY family_isolation ON ${t.table} AS RESTRICTIVE TO frontis_guardian USING (${t.using}) WITH CHECK (${t.check ?? 'false'})`)};
  END IF;`;

export const FAMILY_POLICIES = sql.raw(`
DO $$
BEGIN
  -- Roles are cluster-wide: another database on the same server (or a second process migrating
  -- at the same moment) may have created it already.
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frontis_guardian') THEN
    BEGIN
      CREATE ROLE frontis_guardian NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  -- Switching to it needs membership when the server connects as a non-superuser.
  IF NOT pg_has_role(current_user, 'frontis_guardian', 'MEMBER') THEN
    BEGIN
      EXECUTE format('GRANT frontis_guardian TO %I', current_user);
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  GRANT USAGE ON SCHEMA public TO frontis_guardian;
  GRANT USAGE ON SEQUENCE history_id_seq TO frontis_guardian;
${TABLES.map(tableStatements).join('\n')}
END
$$;
`);
