/**
 * Teachers, students, the definitions of students' custom fields, and notes
 * (domain/resources/people.ts). Keys and foreign keys include tenant_id as everywhere.
 */
import { boolean, date, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { byCodePoint, instant, linkTable, rowMeta, sortKeyColumn } from './columns';
import { classes, subjects } from './directory';
import { id, search, tenantId } from './tenant-columns';
import { users } from './users';

const person = () => ({
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email'),
  phone: text('phone'),
  birthDate: date('birth_date', { mode: 'string' }),
  gender: text('gender'),
});

/** Sort keys of the person fields lists sort by. */
const personSortKeys = () => ({
  firstNameSort: sortKeyColumn('first_name'),
  lastNameSort: sortKeyColumn('last_name'),
  emailSort: sortKeyColumn('email'),
});

/**
 * A teacher is also a TEACHER sign-in (user_id). Deleting one only sets deleted_at: lessons
 * and notes keep pointing at it, and their labels say "Deleted Teacher".
 */
export const teachers = pgTable(
  'teachers',
  {
    tenantId: tenantId(),
    id: id(),
    userId: integer('user_id').notNull(),
    ...person(),
    information: text('information'),
    color: text('color'),
    deletedAt: instant('deleted_at'),
    search: search(),
    ...personSortKeys(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('teachers_user_key').on(t.tenantId, t.userId),
    index('teachers_name_sort_idx').on(t.tenantId, byCodePoint(t.lastNameSort), byCodePoint(t.firstNameSort)),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }),
  ],
);

/** teachers.subject_ids */
export const teacherSubjects = linkTable('teacher_subjects', ['teacherId', 'teacher_id', () => teachers], ['subjectId', 'subject_id', () => subjects]);

export const students = pgTable(
  'students',
  {
    tenantId: tenantId(),
    id: id(),
    ...person(),
    status: text('status').notNull().default('ACTIVE'),
    inactiveReason: text('inactive_reason'),
    information: text('information'),
    /** key -> value, validated against student_custom_fields on every write. */
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    search: search(),
    ...personSortKeys(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Lists sort names by their folded keys (columns.ts), so the pages walk these indexes.
    index('students_name_sort_idx').on(t.tenantId, byCodePoint(t.lastNameSort), byCodePoint(t.firstNameSort)),
    index('students_status_sort_idx').on(t.tenantId, t.status, byCodePoint(t.lastNameSort), byCodePoint(t.firstNameSort)),
  ],
);

/** Both classes.student_ids and students.class_ids: one relation seen from either side. */
export const classStudents = linkTable('class_students', ['classId', 'class_id', () => classes], ['studentId', 'student_id', () => students]);

/** students.subject_ids */
export const studentSubjects = linkTable('student_subjects', ['studentId', 'student_id', () => students], ['subjectId', 'subject_id', () => subjects]);

export const studentCustomFields = pgTable(
  'student_custom_fields',
  {
    tenantId: tenantId(),
    id: id(),
    key: text('key').notNull(),
    label: text('label').notNull(),
    type: text('type').notNull(),
    options: jsonb('options').$type<string[]>(),
    required: boolean('required').notNull().default(false),
    position: integer('position').notNull().default(0),
    search: search(),
    ...rowMeta(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('student_custom_fields_key_key').on(t.tenantId, t.key)],
);

/**
 * author_id is the tenant user who wrote the note; a ROOT is no tenant user, so its notes
 * have author_id null and author_is_root set (labelled "Root").
 */
export const notes = pgTable(
  'notes',
  {
    tenantId: tenantId(),
    id: id(),
    title: text('title').notNull(),
    body: text('body'),
    studentId: integer('student_id'),
    teacherId: integer('teacher_id'),
    classId: integer('class_id'),
    authorId: integer('author_id'),
    authorIsRoot: boolean('author_is_root').notNull().default(false),
    search: search(),
    titleSort: sortKeyColumn('title'),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('notes_updated_idx').on(t.tenantId, t.updatedAt),
    index('notes_student_idx').on(t.tenantId, t.studentId),
    index('notes_teacher_idx').on(t.tenantId, t.teacherId),
    index('notes_class_idx').on(t.tenantId, t.classId),
    index('notes_author_idx').on(t.tenantId, t.authorId),
    foreignKey({ columns: [t.tenantId, t.studentId], foreignColumns: [students.tenantId, students.id] }),
    foreignKey({ columns: [t.tenantId, t.teacherId], foreignColumns: [teachers.tenantId, teachers.id] }),
    foreignKey({ columns: [t.tenantId, t.classId], foreignColumns: [classes.tenantId, classes.id] }),
    foreignKey({ columns: [t.tenantId, t.authorId], foreignColumns: [users.tenantId, users.id] }),
  ],
);
