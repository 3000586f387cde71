/**
 * DEMO_DATA=1: the demo centre's directory — subjects, rooms, categories, classes, lesson
 * types and tags, four teachers, sixty students with guardians, two custom fields and a few
 * notes. Written through the same CRUD code as the API (so history and search text are as
 * real), once: a tenant that already has subjects is left alone. Names are generated from
 * fixed lists by index, so every run produces the same centre.
 */
import { sql } from 'drizzle-orm';
import type { Role } from '../../domain/index';
import type { Database, Tx } from '../db/types';
import { subjects, users } from '../db/schema/index';
import { hashPassword } from '../modules/auth/passwords';
import type { ResourceSpec } from '../engine/spec';
import type { Registry } from '../engine/registry';
import { classesSpec } from '../modules/directory/specs';
import { notesSpec } from '../modules/notes/spec';
import { studentCustomFieldsSpec } from '../modules/student-custom-fields/spec';
import { studentsSpec } from '../modules/students/spec';
import { teachersSpec } from '../modules/teachers/spec';
import { add, fillOnce } from './fill';

/** The spec the engine serves a resource with (plain ones are derived, not imported). */
const specOf = (registry: Registry, name: string): ResourceSpec => registry.specs.get(name)!;

const TEACHER_PASSWORD = 'demo-teacher-2024';

const SUBJECTS: Array<[string, string]> = [
  ['Μαθηματικά', '#1677ff'],
  ['Φυσική', '#722ed1'],
  ['Χημεία', '#13c2c2'],
  ['Βιολογία', '#52c41a'],
  ['Έκθεση', '#fa8c16'],
  ['Αρχαία', '#a0522d'],
  ['Ιστορία', '#eb2f96'],
  ['Αγγλικά', '#2f54eb'],
  ['Πληροφορική', '#595959'],
  ['Οικονομία', '#d4b106'],
];

/** [class, category, year of birth, subjects] */
const CLASSES: Array<[string, string, number, string[]]> = [
  ['Α΄ Γυμνασίου', 'Γυμνάσιο', 2013, ['Μαθηματικά', 'Έκθεση', 'Αγγλικά']],
  ['Γ΄ Γυμνασίου', 'Γυμνάσιο', 2011, ['Μαθηματικά', 'Φυσική', 'Έκθεση', 'Αρχαία']],
  ['Α΄ Λυκείου', 'Λύκειο', 2010, ['Μαθηματικά', 'Φυσική', 'Χημεία', 'Έκθεση', 'Αρχαία']],
  ['Β΄ Λυκείου Θετική', 'Λύκειο', 2009, ['Μαθηματικά', 'Φυσική', 'Χημεία']],
  ['Β΄ Λυκείου Θεωρητική', 'Λύκειο', 2009, ['Έκθεση', 'Αρχαία', 'Ιστορία']],
  ['Γ΄ Λυκείου Θετική', 'Λύκειο', 2008, ['Μαθηματικά', 'Φυσική', 'Χημεία', 'Έκθεση']],
  ['Γ΄ Λυκείου Υγείας', 'Λύκειο', 2008, ['Φυσική', 'Χημεία', 'Βιολογία', 'Έκθεση']],
  ['Γ΄ Λυκείου Οικονομίας', 'Λύκειο', 2008, ['Μαθηματικά', 'Πληροφορική', 'Οικονομία', 'Έκθεση']],
];

/** Existing demo TEACHER users get their teacher rows; the other two come with new sign-ins. */
const TEACHERS: Array<{
  username: string;
  first_name: string;
  last_name: string;
  gender: 'MALE' | 'FEMALE';
  subjects: string[];
  color: string;
  email: string;
  phone: string;
}> = [
  {
    username: 'maria',
    first_name: 'Μαρία',
    last_name: 'Νικολάου',
    gender: 'FEMALE',
    subjects: ['Μαθηματικά', 'Πληροφορική'],
    color: '#1677ff',
    email: 'maria@demo.frontis.app',
    phone: '+30 691 234 5678',
  },
  {
    username: 'nikos',
    first_name: 'Νίκος',
    last_name: 'Κωνσταντίνου',
    gender: 'MALE',
    subjects: ['Φυσική', 'Χημεία'],
    color: '#722ed1',
    email: 'nikos@demo.frontis.app',
    phone: '+30 697 345 6789',
  },
  {
    username: 'katerina',
    first_name: 'Κατερίνα',
    last_name: 'Δημητρίου',
    gender: 'FEMALE',
    subjects: ['Έκθεση', 'Αρχαία', 'Ιστορία'],
    color: '#fa8c16',
    email: 'katerina@demo.frontis.app',
    phone: '+30 694 456 7890',
  },
  {
    username: 'dimitris',
    first_name: 'Δημήτρης',
    last_name: 'Αλεξίου',
    gender: 'MALE',
    subjects: ['Βιολογία', 'Χημεία', 'Οικονομία'],
    color: '#52c41a',
    email: 'dimitris@demo.frontis.app',
    phone: '+30 698 567 8901',
  },
];

const BOYS = ['Γιώργος', 'Κωνσταντίνος', 'Δημήτρης', 'Νίκος', 'Παναγιώτης', 'Βασίλης', 'Χρήστος', 'Αλέξανδρος', 'Θανάσης', 'Στέλιος', 'Μιχάλης', 'Άγγελος'];
const GIRLS = ['Μαρία', 'Ελένη', 'Κατερίνα', 'Βασιλική', 'Σοφία', 'Αναστασία', 'Δήμητρα', 'Χριστίνα', 'Ιωάννα', 'Δέσποινα', 'Αθηνά', 'Ζωή'];
/** [male form, female form] */
const SURNAMES: Array<[string, string]> = [
  ['Παπαδόπουλος', 'Παπαδοπούλου'],
  ['Γεωργίου', 'Γεωργίου'],
  ['Οικονόμου', 'Οικονόμου'],
  ['Ιωάννου', 'Ιωάννου'],
  ['Βλάχος', 'Βλάχου'],
  ['Αθανασίου', 'Αθανασίου'],
  ['Μακρής', 'Μακρή'],
  ['Καραγιάννης', 'Καραγιάννη'],
  ['Σταυρόπουλος', 'Σταυροπούλου'],
  ['Πετρόπουλος', 'Πετροπούλου'],
  ['Αντωνίου', 'Αντωνίου'],
  ['Χατζηδάκης', 'Χατζηδάκη'],
  ['Ζαφειρίου', 'Ζαφειρίου'],
  ['Λαμπράκης', 'Λαμπράκη'],
];
const PARENTS = ['Ιωάννης', 'Αικατερίνη', 'Γεώργιος', 'Ευαγγελία', 'Σπύρος', 'Φωτεινή', 'Ανδρέας', 'Παρασκευή'];
const SCHOOLS = ['1ο Γυμνάσιο Αμπελοκήπων', '3ο Λύκειο Χαλανδρίου', 'Πειραματικό Λύκειο Αθηνών', '2ο Γενικό Λύκειο Αγ. Παρασκευής'];
const SOURCES = ['Σύσταση', 'Internet', 'Φυλλάδιο', 'Παλιός μαθητής'];

export const DEMO_STUDENTS = 60;

const phone = (i: number, prefix: string) => `+30 ${prefix} ${String(1_000_000 + ((i * 7919) % 9_000_000)).padStart(7, '0')}`;

/** Five pairs of siblings: student i (i ≥ 30, every sixth) is the younger sibling of student i - 30. */
const elderSibling = (i: number): number | undefined => (i >= 30 && (i - 30) % 6 === 0 ? i - 30 : undefined);
const familyOf = (i: number) => elderSibling(i) ?? i;
const surnameOf = (i: number) => SURNAMES[(familyOf(i) * 5 + Math.floor(familyOf(i) / 2)) % SURNAMES.length]!;
const STREETS = ['Πατησίων', 'Αλεξάνδρας', 'Κηφισίας', 'Μεσογείων'];
const CITIES: Array<[string, string]> = [
  ['Αθήνα', '11257'],
  ['Χαλάνδρι', '15231'],
  ['Αγία Παρασκευή', '15341'],
  ['Αμπελόκηποι', '11526'],
];

/** A tax number (ΑΦΜ) with a right check digit, from eight digits made of `n`. */
function demoTaxId(n: number): string {
  const digits = String(10_000_000 + ((n * 7_654_321) % 89_999_999)).slice(0, 8);
  let sum = 0;
  for (let k = 0; k < 8; k++) sum += Number(digits[k]) * 2 ** (8 - k);
  return `${digits}${(sum % 11) % 10}`;
}

/** The guardian of family `j` (the elder sibling's index): a parent with a mobile, some with e-mail, address and ΑΦΜ. */
function guardian(j: number) {
  const [male, female] = surnameOf(j);
  const mother = (j % PARENTS.length) % 2 === 1;
  const [city, postal] = CITIES[j % CITIES.length]!;
  const full = j % 5 === 0;
  return {
    first_name: PARENTS[j % PARENTS.length]!,
    last_name: mother ? female : male,
    relation: mother ? 'MOTHER' : 'FATHER',
    phone: phone(j + 101, `69${String((j + 3) % 10)}`),
    email: j % 4 === 0 ? `parent${j + 1}@example.gr` : null,
    address: full ? `${STREETS[j % STREETS.length]} ${10 + j}` : null,
    city: full ? city : null,
    postal_code: full ? postal : null,
    tax_id: full ? demoTaxId(j + 1) : null,
    notify: true,
    // Some who have an address want SMS too; the rest take the default (e-mail where known, else SMS).
    ...(j % 8 === 0 ? { notify_by: 'BOTH' } : {}),
  };
}

function student(i: number, classIndex: number) {
  const girl = i % 2 === 1;
  const [male, female] = surnameOf(i);
  const first = girl ? GIRLS[(i * 7) % GIRLS.length]! : BOYS[(i * 7) % BOYS.length]!;
  const [, , year] = CLASSES[classIndex]!;
  const month = String((i % 12) + 1).padStart(2, '0');
  const day = String((i % 27) + 1).padStart(2, '0');
  return {
    first_name: first,
    last_name: girl ? female : male,
    gender: girl ? 'FEMALE' : 'MALE',
    birth_date: `${year}-${month}-${day}`,
    phone: phone(i, `69${String(i % 10)}`),
    email: i % 3 === 0 ? `student${i + 1}@example.gr` : null,
    status: i % 17 === 16 ? 'INACTIVE' : 'ACTIVE',
    inactive_reason: i % 17 === 16 ? 'Διέκοψε για οικογενειακούς λόγους' : null,
    information: i % 9 === 0 ? 'Χρειάζεται επιπλέον βοήθεια στις ασκήσεις.' : null,
    custom_fields: { school: SCHOOLS[i % SCHOOLS.length], source: SOURCES[i % SOURCES.length] },
  };
}

async function teacherUser(tx: Tx, tenantId: number, username: string): Promise<number | undefined> {
  const [row] = await tx.select({ id: users.id }).from(users).where(sql`${users.tenantId} = ${tenantId} and lower(${users.username}) = ${username}`);
  return row?.id;
}

/** Fills the directory unless it already holds data. Returns the teacher sign-ins it adds to the demo staff's. */
export async function ensureDemoDirectory(
  database: Database,
  registry: Registry,
  tenantId: number,
): Promise<Array<{ username: string; password: string; role: Role }>> {
  const passwordHash = await hashPassword(TEACHER_PASSWORD);
  await fillOnce(database, registry, tenantId, subjects, async (tx, ctx) => {
    const subjectId = new Map<string, number>();
    for (const [name, color] of SUBJECTS) subjectId.set(name, (await add(tx, ctx, specOf(registry, 'subjects'), { name, color })).id);
    const ids = (names: string[]) => names.map((n) => subjectId.get(n)!);
    for (let i = 1; i <= 4; i++) await add(tx, ctx, specOf(registry, 'rooms'), { name: `Αίθουσα ${i}`, capacity: [8, 10, 12, 15][i - 1] });
    const categoryId = new Map<string, number>();
    for (const name of ['Γυμνάσιο', 'Λύκειο']) categoryId.set(name, (await add(tx, ctx, specOf(registry, 'class-categories'), { name })).id);
    for (const name of ['Ετήσιο', 'Καλοκαιρινό', 'Ιδιαίτερα']) await add(tx, ctx, specOf(registry, 'contract-categories'), { name });
    for (const [name, color, entity] of [
      ['Κανονικό', '#1677ff', 'NORMAL'],
      ['Αναπλήρωση', '#fa8c16', 'REPLACEMENT'],
      ['Επανάληψη', '#52c41a', 'NORMAL'],
    ]) {
      await add(tx, ctx, specOf(registry, 'lesson-types'), { name, color, entity });
    }
    for (const [name, color] of [
      ['Διαγώνισμα', '#f5222d'],
      ['Εξεταστέα ύλη', '#722ed1'],
      ['Ασκήσεις', '#13c2c2'],
    ]) {
      await add(tx, ctx, specOf(registry, 'lesson-tags'), { name, color });
    }
    await add(tx, ctx, studentCustomFieldsSpec, { key: 'school', label: 'Σχολείο', type: 'TEXT', options: null, required: false, position: 0 });
    await add(tx, ctx, studentCustomFieldsSpec, {
      key: 'source',
      label: 'Πώς μας βρήκατε',
      type: 'SINGLE_CHOICE',
      options: SOURCES,
      required: false,
      position: 1,
    });

    const teacherIds: number[] = [];
    for (const t of TEACHERS) {
      const { username, subjects: names, ...fields } = t;
      const userId = await teacherUser(tx, tenantId, username);
      // The staff's demo TEACHER users exist already: link them instead of making new sign-ins.
      const spec: ResourceSpec = userId ? { ...teachersSpec, beforeWrite: async () => ({ user_id: userId }) } : teachersSpec;
      const row = await add(tx, ctx, spec, { ...fields, username, __password_hash: passwordHash, subject_ids: ids(names) });
      teacherIds.push(row.id);
    }

    const classStudents: number[][] = CLASSES.map(() => []);
    const studentIds: number[] = [];
    for (let i = 0; i < DEMO_STUDENTS; i++) {
      const c = i % CLASSES.length;
      const row = await add(tx, ctx, studentsSpec, { ...student(i, c), subject_ids: ids(CLASSES[c]![3]).slice(0, 2 + (i % 2)) });
      classStudents[c]!.push(row.id);
      studentIds.push(row.id);
    }
    // every student has a guardian; siblings share theirs
    for (let j = 0; j < DEMO_STUDENTS; j++) {
      if (elderSibling(j) !== undefined) continue;
      const children = studentIds.filter((_, i) => familyOf(i) === j);
      await add(tx, ctx, specOf(registry, 'guardians'), { ...guardian(j), student_ids: children });
    }
    const classIds: number[] = [];
    for (const [c, [name, category, , names]] of CLASSES.entries()) {
      const row = await add(tx, ctx, classesSpec, {
        name,
        category_id: categoryId.get(category),
        student_ids: classStudents[c],
        subject_ids: ids(names),
        information: c >= 5 ? 'Προετοιμασία για τις Πανελλαδικές.' : null,
      });
      classIds.push(row.id);
    }

    await add(tx, ctx, notesSpec, { title: 'Ενημέρωση γονέα', body: 'Ο κηδεμόνας ζήτησε ραντεβού για την πρόοδο στα Μαθηματικά.', student_id: studentIds[0] });
    await add(tx, ctx, notesSpec, {
      title: 'Αλλαγή ωραρίου',
      body: 'Από τον επόμενο μήνα τα μαθήματα της Πέμπτης μετακινούνται στις 18:00.',
      class_id: classIds[5],
    });
    await add(tx, ctx, notesSpec, {
      title: 'Υλικό επανάληψης',
      body: 'Να μοιραστούν τα φυλλάδια επανάληψης στη Φυσική.',
      teacher_id: teacherIds[1],
      class_id: classIds[3],
    });
    await add(tx, ctx, notesSpec, { title: 'Διαγώνισμα προσομοίωσης', body: 'Κυριακή 10:00, Αίθουσα 4.', class_id: classIds[6], teacher_id: teacherIds[3] });
  });
  return TEACHERS.filter((t) => !['maria', 'nikos'].includes(t.username)).map((t) => ({
    username: t.username,
    password: TEACHER_PASSWORD,
    role: 'TEACHER' as Role,
  }));
}
