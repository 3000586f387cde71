/**
 * docs/rules.md, Attendance: an ABSENT mark writes, in the mark's own transaction, one notice
 * per guardian of the student who wants notices, by her channel (e-mail, SMS or both, one row
 * each), held back for the grace period; the office is told in the app. Undoing the mark
 * within the grace period cancels them; marking ABSENT again arms the same rows again (their
 * keys are per lesson, student, guardian and channel), so a lesson and student never send two.
 */
import { sql } from 'drizzle-orm';
import { interpolate, lessonLink, portalAttendanceLink, type NotificationParams } from '../../../domain/index';
import el from '../../../src/locales/el/attendance.json' with { type: 'json' };
import en from '../../../src/locales/en/attendance.json' with { type: 'json' };
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { armMessage } from '../messages/enqueue';
import { guardianAccounts, notify, officeStaff, wake } from '../notifications/create';
import { greeting } from '../notifications/letter';
import { asLanguage } from '../notifications/text';

const NOTICE = { el: el.attendance.notice, en: en.attendance.notice };

/** What the notice names: the lesson as the family knows it. */
export interface NoticeLesson {
  id: number;
  /** DD/MM/YYYY */
  date: string;
  start: string;
  end: string;
  subject: string | null;
  className: string | null;
}

const keyPrefix = (lessonId: number, studentId: number) => `absence:${lessonId}:${studentId}:`;
/** The key of the guardians' in-app notice of one absence. */
const portalKey = (lessonId: number, studentId: number) => `child-absent:${lessonId}:${studentId}`;

/** Writes (or arms again) the notices of one absence; answers how many guardians it reaches. */
export async function armAbsenceNotices(
  tx: Tx,
  args: {
    tenantId: number;
    lesson: NoticeLesson;
    student: { id: number; name: string };
    graceSeconds: number;
    except: number | null;
    /** The centre's address (PUBLIC_URL with its label), for the link an SMS cut short carries. */
    origin?: string;
  },
): Promise<number> {
  const { tenantId, lesson, student } = args;
  const [centre] = await queryRows<{ name: string; language: string }>(tx, sql`select name, language from tenants where id = ${tenantId}`);
  const language = asLanguage(centre?.language);
  const texts = NOTICE[language];
  const what = [lesson.subject, lesson.className].filter(Boolean).join(' · ') || '—';
  const wanting = await queryRows<{ id: number; first_name: string; last_name: string; relation: string }>(
    tx,
    sql`select g.id, g.first_name, g.last_name, g.relation from guardians g
        join student_guardians sg on sg.tenant_id = g.tenant_id and sg.guardian_id = g.id
        where g.tenant_id = ${tenantId} and sg.student_id = ${student.id} and g.notify
        order by g.id`,
  );
  const guardians: typeof wanting = [];
  for (const guardian of wanting) {
    const params: NotificationParams = {
      guardian: `${guardian.first_name} ${guardian.last_name}`.trim(),
      greeting: greeting(guardian, language),
      student: student.name,
      lesson: what,
      date: lesson.date,
      start: lesson.start,
      end: lesson.end,
      centre: centre?.name ?? '',
    };
    // Once per lesson, student, guardian and channel: a key already sent stays sent; a cancelled one is armed again.
    const channels = await armMessage(tx, {
      tenantId,
      kind: 'absence',
      dedupeKey: keyPrefix(lesson.id, student.id) + guardian.id,
      guardianId: guardian.id,
      subject: interpolate(texts.subject, params),
      body: interpolate(texts.body, params),
      sms: interpolate(texts.sms, params),
      link: args.origin ? `${args.origin}${portalAttendanceLink(student.id)}` : undefined,
      params: { ...params, lesson_id: lesson.id, student_id: student.id },
      delaySeconds: args.graceSeconds,
    });
    if (channels > 0) guardians.push(guardian);
  }
  const notice = { student: student.name, lesson: what, date: lesson.date, start: lesson.start };
  await notify(tx, tenantId, [
    // Each guardian the e-mail goes to also finds it in her portal, when she has one.
    {
      kind: 'child-absent',
      params: notice,
      link: portalAttendanceLink(student.id),
      recipients: guardianAccounts(
        tenantId,
        guardians.map((g) => g.id),
      ),
      dedupeKey: portalKey(lesson.id, student.id),
    },
    {
      kind: 'student-absent',
      params: { student: student.name, lesson: what, date: lesson.date, start: lesson.start, count: guardians.length },
      link: lessonLink(lesson.id),
      recipients: officeStaff(tenantId, args.except),
      dedupeKey: `student-absent:${lesson.id}:${student.id}`,
    },
  ]);
  return guardians.length;
}

/** Cancels the notices of an absence not yet sent (the mark was undone); answers how many. */
export async function cancelAbsenceNotices(tx: Tx, tenantId: number, lessonId: number, studentId: number): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update outbox set cancelled_at = now()
        where tenant_id = ${tenantId} and kind = 'absence' and starts_with(dedupe_key, ${keyPrefix(lessonId, studentId)})
          and sent_at is null and cancelled_at is null
        returning id`,
  );
  // The guardians' in-app notice goes too, unless she has read it already.
  const gone = await queryRows<{ user_id: number }>(
    tx,
    sql`delete from notifications where tenant_id = ${tenantId} and kind = 'child-absent' and dedupe_key = ${portalKey(lessonId, studentId)} and read_at is null
        returning user_id`,
  );
  if (gone.length)
    await wake(
      tx,
      tenantId,
      gone.map((r) => Number(r.user_id)),
    );
  return rows.length;
}
