import type { ResourceDef } from '../../domain/fields';
import { LESSONS } from '../../domain/resources/lessons';
import type { DetailTab } from '../engine/view/declared-tabs';
import { lazyPart } from '../lazy';
import type { Owner } from './lessons/lesson-tabs';

// The detail tabs declarations may name (`screen.tabs`), each shown by its resource's code,
// loaded with the first view that shows it. App hands them to the engine (DetailTabsContext).

const LessonsTab = lazyPart(() => import('./lessons/lesson-tabs').then((m) => ({ default: m.LessonsTab })));
const SeriesTab = lazyPart(() => import('./lessons/lesson-tabs').then((m) => ({ default: m.SeriesTab })));
const StudentMoneyTab = lazyPart(() => import('./money/student-tabs'));
const AttendanceTab = lazyPart(() => import('./attendance/attendance-tab').then((m) => ({ default: m.AttendanceTab })));
const StudentGuardiansTab = lazyPart(() => import('./guardians/student-guardians-tab'));
const GuardianMessagesTab = lazyPart(() => import('./messages/guardian-messages-tab'));

/**
 * The lessons filter naming rows of `def`: class_id for classes, teacher_id for teachers, and
 * student_id for students (the lessons of their classes, a filter the server adds).
 */
const lessonOwner = (def: ResourceDef): Owner | undefined =>
  def.name === 'students' ? 'student_id' : (LESSONS.fields.find((f) => f.type === 'REFERENCE' && f.reference === def.name)?.name as Owner | undefined);

/** A student's contracts and payments (the only owner of contracts so far). */
const isStudent = (def: ResourceDef) => def.name === 'students';

export const DETAIL_TABS: Readonly<Record<string, DetailTab>> = {
  lessons: {
    label: 'lessons.tabs.lessons',
    shows: (def) => lessonOwner(def) !== undefined,
    render: (def, id) => <LessonsTab field={lessonOwner(def) as Owner} id={id} />,
  },
  // a student's series are those of the student's classes: the class shows them
  'recurring-lessons': {
    label: 'lessons.tabs.recurring',
    shows: (def) => ![undefined, 'student_id'].includes(lessonOwner(def)),
    render: (def, id) => <SeriesTab field={lessonOwner(def) as Owner} id={id} />,
  },
  guardians: { label: 'students.tabs.guardians', shows: isStudent, render: (_, id) => <StudentGuardiansTab id={id} /> },
  contracts: { label: 'students.tabs.contracts', shows: isStudent, render: (_, id) => <StudentMoneyTab tab="contracts" id={id} /> },
  payments: { label: 'students.tabs.payments', shows: isStudent, render: (_, id) => <StudentMoneyTab tab="payments" id={id} /> },
  // a student's or a class's marks and rate over a date range
  attendance: {
    label: 'attendance.title',
    shows: (def) => def.name === 'students' || def.name === 'classes',
    render: (def, id) => <AttendanceTab field={def.name === 'students' ? 'student_id' : 'class_id'} id={id} />,
  },
  // the messages sent to a guardian, by e-mail and SMS
  messages: { label: 'messages.tab', shows: (def) => def.name === 'guardians', render: (_, id) => <GuardianMessagesTab id={id} /> },
};
