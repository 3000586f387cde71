/**
 * docs/rules.md, Attendance: an ABSENT mark writes, in the mark's own transaction, one e-mail
 * per guardian of the student who wants notices and has an address, held back for the grace
 * period; the office is told in the app. Undoing the mark within the grace period cancels the
 * e-mails; marking ABSENT again arms the same rows again (their keys are per lesson, student
 * and guardian), so a lesson and student never send two.
 */
import { sql } from 'drizzle-orm';
import { interpolate, lessonLink, portalAttendanceLink, type NotificationParams } from '../../../domain/index';
import el from '../../../src/locales/el/attendance.json' with { type: 'json' };
import en from '../../../src/locales/en/attendance.json' with { type: 'json' };
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
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
  args: { tenantId: number; lesson: NoticeLesson; student: { id: number; name: string }; graceSeconds: number; except: number | null },
): Promise<number> {
  const { tenantId, lesson, student } = args;
  const [centre] = await queryRows<{ name: string; language: string }>(tx, sql`select name, language from tenants where id = ${tenantId}`);
  const language = asLanguage(centre?.language);
  const texts = NOTICE[language];
  const what = [lesson.subject, lesson.className].filter(Boolean).join(' · ') || '—';
  const guardians = await queryRows<{ id: number; email: string; first_name: string; last_name: string; relation: string }>(
    tx,
    sql`select g.id, g.email, g.first_name, g.last_name, g.relation from guardians g
        join student_guardians sg on sg.tenant_id = g.tenant_id and sg.guardian_id = g.id
        where g.tenant_id = ${tenantId} and sg.student_id = ${student.id} and g.notify and coalesce(trim(g.email), '') <> ''
        order by g.id`,
  );
  for (const guardian of guardians) {
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
    // Once per lesson, student and guardian: a key already sent stays sent; a cancelled one is armed again.
    await tx.execute(sql`
      insert into outbox (tenant_id, kind, dedupe_key, recipient, guardian_id, subject, body, params, deliver_after)
      values (${tenantId}, 'absence', ${keyPrefix(lesson.id, student.id) + guardian.id}, ${guardian.email.trim()}, ${guardian.id},
              ${interpolate(texts.subject, params)}, ${interpolate(texts.body, params)}, ${JSON.stringify({ ...params, lesson_id: lesson.id, student_id: student.id })}::jsonb,
              now() + make_interval(secs => ${args.graceSeconds}))
      on conflict (tenant_id, dedupe_key) do update
        set cancelled_at = null, deliver_after = excluded.deliver_after, recipient = excluded.recipient,
            subject = excluded.subject, body = excluded.body, params = excluded.params
        where outbox.sent_at is null`);
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
