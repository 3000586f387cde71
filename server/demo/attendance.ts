/**
 * DEMO_DATA=1: a term of attendance for the demo centre — every student of each class marked
 * for each of its lessons from the start of the school year to yesterday, nearly all present,
 * a few late, excused or absent (chosen from the lesson and student, so every run is the
 * same) — and the absence notices those absences sent their guardians by their channels (an
 * e-mail sent, an SMS delivered, a few minutes after the lesson, in the text a real absence
 * writes). Once: a centre that has marks is left alone. Runs after the demo's guardians, whose
 * addresses the notices go to.
 */
import { sql } from 'drizzle-orm';
import { addressesOf, displayDate, interpolate } from '../../domain/index';
import el from '../../src/locales/el/attendance.json' with { type: 'json' };
import type { Database } from '../db/types';
import { queryRows } from '../db/statements';
import { NOTICE_SEGMENTS, smsKey } from '../modules/messages/enqueue';
import { fitSms } from '../modules/messages/segments';
import { attendance } from '../db/schema/index';
import type { Registry } from '../engine/registry';
import { fillOnce } from './fill';
import { schoolYear } from './lessons';

/** Minutes after the lesson's end at which the demo's notices went out (the grace period). */
const SENT_AFTER_MINUTES = 5;

interface Absence {
  lesson_id: number;
  student_id: number;
  student: string;
  date: string;
  start: string;
  end: string;
  lesson: string;
  guardian_id: number;
  guardian: string;
  email: string | null;
  phone: string | null;
  notify_by: string;
  sent_at: string;
}

export async function ensureDemoAttendance(
  database: Database,
  registry: Registry,
  tenantId: number,
  today = new Date().toISOString().slice(0, 10),
): Promise<void> {
  await fillOnce(database, registry, tenantId, attendance, async (tx) => {
    const term = schoolYear(today);
    // The lesson's teacher marked it, at its end.
    await tx.execute(sql`
      insert into attendance (tenant_id, lesson_id, student_id, status, note, marked_by, marked_at)
      select l.tenant_id, l.id, cs.student_id,
             case when (l.id * 7 + cs.student_id * 13) % 41 = 0 then 'ABSENT'
                  when (l.id * 5 + cs.student_id * 3) % 37 = 0 then 'LATE'
                  when (l.id * 11 + cs.student_id * 17) % 59 = 0 then 'EXCUSED'
                  else 'PRESENT' end,
             case when (l.id * 11 + cs.student_id * 17) % 59 = 0 and (l.id * 7 + cs.student_id * 13) % 41 <> 0
                       and (l.id * 5 + cs.student_id * 3) % 37 <> 0 then 'Ενημέρωσε ο γονέας' end,
             t.user_id,
             (l.date + l.end_time) at time zone tn.time_zone
      from lessons l
      join tenants tn on tn.id = l.tenant_id
      join class_students cs on cs.tenant_id = l.tenant_id and cs.class_id = l.class_id
      left join teachers t on t.tenant_id = l.tenant_id and t.id = l.teacher_id
      where l.tenant_id = ${tenantId} and l.status = 'NORMAL' and l.date >= ${term.start}::date and l.date < ${today}::date`);

    const [centre] = await queryRows<{ name: string }>(tx, sql`select name from tenants where id = ${tenantId}`);
    const absences = await queryRows<Absence>(
      tx,
      sql`select a.lesson_id, a.student_id, trim(s.first_name || ' ' || s.last_name) as student,
                 to_char(l.date, 'YYYY-MM-DD') as date, to_char(l.start_time, 'HH24:MI') as start, to_char(l.end_time, 'HH24:MI') as end,
                 coalesce(nullif(concat_ws(' · ', sb.name, c.name), ''), '—') as lesson,
                 g.id as guardian_id, trim(g.first_name || ' ' || g.last_name) as guardian, trim(g.email) as email, g.phone, g.notify_by,
                 to_char((a.marked_at + make_interval(mins => ${SENT_AFTER_MINUTES})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as sent_at
          from attendance a
          join lessons l on l.tenant_id = a.tenant_id and l.id = a.lesson_id
          join students s on s.tenant_id = a.tenant_id and s.id = a.student_id
          left join subjects sb on sb.tenant_id = l.tenant_id and sb.id = l.subject_id
          left join classes c on c.tenant_id = l.tenant_id and c.id = l.class_id
          join student_guardians sg on sg.tenant_id = a.tenant_id and sg.student_id = a.student_id
          join guardians g on g.tenant_id = sg.tenant_id and g.id = sg.guardian_id and g.notify
          where a.tenant_id = ${tenantId} and a.status = 'ABSENT'
          order by a.marked_at, a.student_id, g.id`,
    );
    for (const a of absences) {
      const params = {
        guardian: a.guardian,
        student: a.student,
        lesson: a.lesson,
        date: displayDate(a.date),
        start: a.start,
        end: a.end,
        centre: centre?.name ?? '',
      };
      const { email, mobile } = addressesOf(a);
      const key = `absence:${a.lesson_id}:${a.student_id}:${a.guardian_id}`;
      const subject = interpolate(el.attendance.notice.subject, params);
      const routes = [
        ...(email ? [{ channel: 'EMAIL', status: 'SENT', to: email, key, body: interpolate(el.attendance.notice.body, params) }] : []),
        ...(mobile
          ? [
              {
                channel: 'SMS',
                status: 'DELIVERED',
                to: mobile,
                key: smsKey(key),
                body: fitSms(interpolate(el.attendance.notice.sms, params), NOTICE_SEGMENTS),
              },
            ]
          : []),
      ];
      for (const r of routes)
        await tx.execute(sql`
        insert into outbox (tenant_id, kind, dedupe_key, channel, status, recipient, guardian_id, subject, body, params, deliver_after, attempts, sent_at, delivered_at, created_at)
        values (${tenantId}, 'absence', ${r.key}, ${r.channel}, ${r.status}, ${r.to}, ${a.guardian_id}, ${subject}, ${r.body},
                ${JSON.stringify({ ...params, lesson_id: a.lesson_id, student_id: a.student_id })}::jsonb,
                ${a.sent_at}::timestamptz, 1, ${a.sent_at}::timestamptz, ${r.status === 'DELIVERED' ? a.sent_at : null}::timestamptz,
                ${a.sent_at}::timestamptz - make_interval(mins => ${SENT_AFTER_MINUTES}))
        on conflict (tenant_id, dedupe_key) do nothing`);
    }
  });
}
