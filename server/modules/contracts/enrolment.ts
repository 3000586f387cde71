/**
 * docs/rules.md, Contracts (lifecycle): from the day after a withdrawal the student is on no
 * roster, receives no absence notice and has no lesson in the portal's timetable, unless
 * another contract of hers is still running on that day (she left one course, not the centre,
 * or came back). Her past stays: lessons up to the withdrawal date are untouched.
 */
import { sql, type SQL } from 'drizzle-orm';

/**
 * Whether the student (ids as SQL) had left the centre by `day` (a date as SQL): a contract of
 * hers was withdrawn before that day and no active contract of hers covers it.
 */
export const leftBy = (tenantId: SQL | number, studentId: SQL | number, day: SQL): SQL =>
  sql`(exists (select 1 from contracts w where w.tenant_id = ${tenantId} and w.student_id = ${studentId}
                 and w.status = 'WITHDRAWN' and w.withdrawn_on < ${day})
       and not exists (select 1 from contracts o where o.tenant_id = ${tenantId} and o.student_id = ${studentId}
                 and o.status = 'ACTIVE' and o.start_date <= ${day} and o.end_date >= ${day}))`;
