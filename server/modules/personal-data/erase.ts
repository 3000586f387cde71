/**
 * Erasing a person (docs/rules.md, Personal data): what her declaration says is personal
 * (FieldDef.personal) is cleared on her row, and on every row that points at her (notes about
 * her, her attendance marks, contracts: holders.ts), names become a placeholder, links to the
 * family are removed, and the history of all those rows keeps that a change happened but not
 * the values. Messages (and the answers kept for writes sent again under an Idempotency-Key)
 * that name her lose her name, her portal sign-in goes and the sign-in
 * attempts under her name forget it. What the law asks the centre to keep stays as it was:
 * contracts, payments and their amounts and dates, and every receipt as issued (a fiscal
 * document: its payer is not rewritten). So every figure of the centre (accounts, analytics,
 * a contract's balance) is the same before and after.
 */
import { sql, type SQL } from 'drizzle-orm';
import { DomainError, ERASED_NAME, personalFields } from '../../../domain/index';
import type { Actor } from '../../context';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { recordHistory } from '../../engine/history';
import type { Registry } from '../../engine/registry';
import { INVITATION_HISTORY, removeSignIn, signInOf } from '../portal-auth/invitations';
import type { PersonKind } from './collect';
import { erasePersonal, holderOf, holdersOf, pointsAt, scrubHistory } from './holders';

/** Text of in-app notifications and family messages that names the person: the name is replaced. */
async function scrubMessages(tx: Tx, tenantId: number, names: readonly string[], outboxWhere: SQL) {
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

/** How erasure leaves a person's own row beside her personal fields: not active, not written to. */
const AFTER: Record<PersonKind, SQL[]> = {
  students: [sql`status = 'INACTIVE'`],
  guardians: [sql`notify = false`, sql`portal = false`],
};

/** The messages that are the person's: to her family about her, or to her. */
const MESSAGES: Record<PersonKind, (id: number) => SQL> = {
  students: (id) => sql`(params->>'student_id' = ${String(id)} or dedupe_key like ${`%:student:${id}:%`})`,
  guardians: (id) => sql`guardian_id = ${id}`,
};

/** What the erasure found of her sign-in: names the platform's attempt records are to forget (login-attempts.ts). */
export interface Erased {
  signInNames: string[];
}

export async function erasePerson(tx: Tx, registry: Registry, tenantId: number, actor: Actor | null, kind: PersonKind, id: number): Promise<Erased> {
  const spec = registry.specs.get(kind)!;
  const own = holderOf(spec);
  const personal = personalFields(spec.def.fields);
  const [before] = await queryRows<{ r: Record<string, unknown> }>(
    tx,
    sql`select to_jsonb(p) as r from ${sql.identifier(own.table)} p where tenant_id = ${tenantId} and id = ${id} for update`,
  );
  if (!before) throw new DomainError('not-found');
  const names = personal.filter((f) => f.personal === 'name').map((f) => String(before.r[f.name] ?? ''));
  // Texts that stand for her in messages: her name both ways round, her contacts.
  const written = [names.join(' '), [...names].reverse().join(' '), ...personal.filter((f) => f.type === 'EMAIL').map((f) => before.r[f.name])].filter(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );

  await erasePersonal(tx, tenantId, own, sql`id = ${id}`, AFTER[kind]);
  await tx.execute(
    sql`delete from student_guardians where tenant_id = ${tenantId} and ${sql.identifier(kind === 'students' ? 'student_id' : 'guardian_id')} = ${id}`,
  );
  for (const { holder, field } of await holdersOf(tx, registry, kind)) await erasePersonal(tx, tenantId, holder, pointsAt(field, id));

  const signInNames: string[] = [];
  if (kind === 'guardians') {
    // Her portal sign-in (its username is her e-mail address) and her invitations go too.
    const user = await signInOf(tx, tenantId, id);
    if (user) {
      const [account] = await queryRows<{ username: string }>(tx, sql`select username from users where tenant_id = ${tenantId} and id = ${user.id}`);
      if (account) signInNames.push(account.username);
      const users = registry.specs.get('users');
      if (users)
        await scrubHistory(
          tx,
          tenantId,
          'users',
          [user.id],
          personalFields(users.def.fields).map((f) => f.name),
        );
      // what she changed herself in the portal is kept, but no longer says who she was
      await tx.execute(sql`update history set user_name = ${`${ERASED_NAME} #${id}`} where tenant_id = ${tenantId} and user_id = ${user.id}`);
    }
    const invitations = await queryRows<{ email: string }>(
      tx,
      sql`select distinct email from portal_invitations where tenant_id = ${tenantId} and guardian_id = ${id}`,
    );
    signInNames.push(...invitations.map((i) => i.email));
    await removeSignIn(tx, tenantId, id);
    await scrubHistory(tx, tenantId, INVITATION_HISTORY, [id], ['email']);
  }
  for (const f of personal)
    if (f.type === 'EMAIL' || f.type === 'USERNAME') if (typeof before.r[f.name] === 'string') signInNames.push(before.r[f.name] as string);
  await scrubMessages(tx, tenantId, written, MESSAGES[kind](id));
  // The answers kept a day for writes sent again under an Idempotency-Key (JSON bodies that
  // may hold any of her fields, one by one).
  for (const value of personal.map((f) => before.r[f.name])) {
    if (typeof value !== 'string' || value.trim().length < 3) continue;
    const inJson = JSON.stringify(value).slice(1, -1);
    await tx.execute(sql`update idempotency_keys set body = replace(body, ${inJson}, ${ERASED_NAME})
      where tenant_id = ${tenantId} and strpos(body, ${inJson}) > 0`);
  }
  await recordHistory(tx, tenantId, actor, { entity: kind, entityId: id, action: 'update', before: { erased: false }, after: { erased: true } });
  return { signInNames };
}
