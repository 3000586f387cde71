/**
 * Erasing a person (docs/rules.md, Personal data): names become a placeholder, contacts and
 * free text are cleared, custom values emptied, links to the family removed, and the history
 * of the person's rows keeps that a change happened but not the values. What the law asks the
 * centre to keep stays as it was: contracts, payments and their amounts and dates, and every
 * receipt as issued (a fiscal document: its payer is not rewritten). So every figure of the
 * centre (accounts, analytics, a contract's balance) is the same before and after.
 */
import { sql } from 'drizzle-orm';
import { DomainError } from '../../../domain/index';
import { normalizeSearch } from '../../../domain/text';
import type { Actor } from '../../context';
import { queryRows, type Tx } from '../../db/client';
import { recordHistory } from '../../engine/history';
import { INVITATION_HISTORY, removeSignIn } from '../portal-auth/invitations';
import type { PersonKind } from './collect';

/** The name an erased person is shown by. */
export const ERASED_NAME = 'Διαγραμμένος/η';
/** What stands for an erased value in history and messages. */
export const ERASED_VALUE = '[erased]';

/** Fields of each person's row whose values history must no longer hold. */
const PERSONAL_FIELDS: Record<PersonKind, readonly string[]> = {
  students: ['first_name', 'last_name', 'email', 'phone', 'birth_date', 'gender', 'information', 'inactive_reason', 'custom_fields'],
  guardians: ['first_name', 'last_name', 'phone', 'email', 'address', 'city', 'postal_code', 'tax_id'],
};

/** Replaces the values of `fields` in every history entry of these rows by the erased marker. */
async function scrubHistory(tx: Tx, tenantId: number, entity: string, ids: readonly number[], fields: readonly string[]) {
  if (!ids.length) return;
  const keys = sql.raw(`array[${fields.map((f) => `'${f}'`).join(', ')}]`);
  await tx.execute(sql`update history h set changes = (
      select coalesce(jsonb_object_agg(k, case when k = any(${keys}) then jsonb_build_object('old', case when v->'old' = 'null'::jsonb then v->'old' else to_jsonb(${ERASED_VALUE}::text) end,
        'new', case when v->'new' = 'null'::jsonb then v->'new' else to_jsonb(${ERASED_VALUE}::text) end) else v end), '{}'::jsonb)
      from jsonb_each(h.changes) as e(k, v))
    where h.tenant_id = ${tenantId} and h.entity = ${entity} and h.entity_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
}

/** Text of in-app notifications and family messages that names the person: the name is replaced. */
async function scrubMessages(tx: Tx, tenantId: number, names: readonly string[], outboxWhere: ReturnType<typeof sql>) {
  for (const name of names) {
    if (name.trim().length < 3) continue;
    const inJson = JSON.stringify(name).slice(1, -1);
    await tx.execute(sql`update notifications set params = replace(params::text, ${inJson}, ${ERASED_NAME})::jsonb
      where tenant_id = ${tenantId} and strpos(params::text, ${inJson}) > 0`);
    await tx.execute(sql`update outbox set subject = replace(subject, ${name}, ${ERASED_NAME}), body = replace(body, ${name}, ${ERASED_NAME}),
        params = replace(params::text, ${inJson}, ${ERASED_NAME})::jsonb
      where tenant_id = ${tenantId} and (strpos(body, ${name}) > 0 or strpos(subject, ${name}) > 0 or strpos(params::text, ${inJson}) > 0)`);
  }
  // messages to the person not sent yet are not sent at all; sent ones keep no address or text
  await tx.execute(sql`update outbox set cancelled_at = now() where tenant_id = ${tenantId} and sent_at is null and cancelled_at is null and ${outboxWhere}`);
  await tx.execute(sql`update outbox set recipient = '', body = '', params = '{}'::jsonb where tenant_id = ${tenantId} and ${outboxWhere}`);
}

const erasedSearch = (id: number) => normalizeSearch(`${ERASED_NAME} #${id}`);

export async function eraseStudent(tx: Tx, tenantId: number, actor: Actor | null, id: number): Promise<void> {
  const [before] = await queryRows<{ first_name: string; last_name: string }>(
    tx,
    sql`select first_name, last_name from students where tenant_id = ${tenantId} and id = ${id} for update`,
  );
  if (!before) throw new DomainError('not-found');
  await tx.execute(sql`update students set first_name = ${ERASED_NAME}, last_name = ${`#${id}`}, email = null, phone = null, birth_date = null,
      gender = null, information = null, inactive_reason = null, custom_fields = '{}'::jsonb, status = 'INACTIVE',
      search = ${erasedSearch(id)}, version = version + 1, updated_at = now()
    where tenant_id = ${tenantId} and id = ${id}`);
  await tx.execute(sql`delete from student_guardians where tenant_id = ${tenantId} and student_id = ${id}`);
  // free text about the student: notes about her, marks' remarks, contracts' and payments' notes
  const notes = await queryRows<{ id: number }>(
    tx,
    sql`update notes set title = ${ERASED_NAME}, body = null, search = ${normalizeSearch(ERASED_NAME)}, version = version + 1, updated_at = now()
      where tenant_id = ${tenantId} and student_id = ${id} returning id`,
  );
  await scrubHistory(
    tx,
    tenantId,
    'notes',
    notes.map((n) => n.id),
    ['title', 'body'],
  );
  const marks = await queryRows<{ id: number }>(tx, sql`update attendance set note = null where tenant_id = ${tenantId} and student_id = ${id} returning id`);
  await scrubHistory(
    tx,
    tenantId,
    'attendance',
    marks.map((m) => m.id),
    ['note'],
  );
  const contracts = await queryRows<{ id: number }>(
    tx,
    sql`update contracts set notes = null, withdrawal_reason = null where tenant_id = ${tenantId} and student_id = ${id} returning id`,
  );
  await scrubHistory(
    tx,
    tenantId,
    'contracts',
    contracts.map((c) => c.id),
    ['notes', 'withdrawal_reason'],
  );
  await scrubHistory(tx, tenantId, 'students', [id], PERSONAL_FIELDS.students);
  await scrubMessages(
    tx,
    tenantId,
    [`${before.first_name} ${before.last_name}`, `${before.last_name} ${before.first_name}`],
    sql`(params->>'student_id' = ${String(id)} or dedupe_key like ${`%:student:${id}:%`})`,
  );
  await recordHistory(tx, tenantId, actor, { entity: 'students', entityId: id, action: 'update', before: { erased: false }, after: { erased: true } });
}

export async function eraseGuardian(tx: Tx, tenantId: number, actor: Actor | null, id: number): Promise<void> {
  const [before] = await queryRows<{ first_name: string; last_name: string; email: string | null }>(
    tx,
    sql`select first_name, last_name, email from guardians where tenant_id = ${tenantId} and id = ${id} for update`,
  );
  if (!before) throw new DomainError('not-found');
  await tx.execute(sql`update guardians set first_name = ${ERASED_NAME}, last_name = ${`#${id}`}, phone = null, email = null, address = null,
      city = null, postal_code = null, tax_id = null, notify = false, portal = false,
      search = ${erasedSearch(id)}, version = version + 1, updated_at = now()
    where tenant_id = ${tenantId} and id = ${id}`);
  await tx.execute(sql`delete from student_guardians where tenant_id = ${tenantId} and guardian_id = ${id}`);
  // Her portal sign-in (its username is her e-mail address) and her invitations go too.
  await removeSignIn(tx, tenantId, id);
  await scrubHistory(tx, tenantId, 'guardians', [id], PERSONAL_FIELDS.guardians);
  await scrubHistory(tx, tenantId, INVITATION_HISTORY, [id], ['email']);
  await scrubMessages(tx, tenantId, [`${before.first_name} ${before.last_name}`, ...(before.email ? [before.email] : [])], sql`guardian_id = ${id}`);
  await recordHistory(tx, tenantId, actor, { entity: 'guardians', entityId: id, action: 'update', before: { erased: false }, after: { erased: true } });
}
