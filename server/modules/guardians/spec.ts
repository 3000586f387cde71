/**
 * Guardians: a person's plain fields and the students they are a guardian of (siblings share
 * one). The link is the same rows as students.guardian_ids. `portal` is her access to the
 * families' portal: turned on, she is e-mailed an invitation in the same transaction; turned
 * off, her sign-in ends; a guardian deleted takes her sign-in with her.
 */
import { sql } from 'drizzle-orm';
import { defaultNotifyBy, GUARDIANS } from '../../../domain/index';
import { guardians, studentGuardians } from '../../db/schema/index';
import { personLabel } from '../../db/schema/columns';
import { declaredRow, type ResourceSpec } from '../../engine/spec';
import { deleteRow } from '../../engine/write';
import { endPortal, inviteGuardian, refuseTakenEmail, removeSignIn, signInOf, usernameOfEmail, type InvitedGuardian } from '../portal-auth/invitations';

const emailOf = (value: unknown) => (typeof value === 'string' && value.trim() ? usernameOfEmail(value) : null);

/** Her phone as a mobile an SMS reaches (domain/reach.ts, mobileE164, in SQL). */
const HAS_MOBILE = sql`(regexp_replace(coalesce(guardians.phone, ''), '[[:space:]().-]', '', 'g') ~ '^(([+]|00)30)?69[0-9]{8}$'
  or (regexp_replace(coalesce(guardians.phone, ''), '[[:space:]().-]', '', 'g') ~ '^([+]|00)[1-9][0-9]{7,14}$'
      and regexp_replace(coalesce(guardians.phone, ''), '[[:space:]().-]', '', 'g') !~ '^([+]|00)30'))`;
const HAS_EMAIL = sql`coalesce(trim(guardians.email), '') <> ''`;

/** No notice reaches her: her channel has no address (domain/reach.ts, unreachable). */
export const UNREACHABLE = sql<boolean>`(case guardians.notify_by when 'EMAIL' then not ${HAS_EMAIL} when 'SMS' then not ${HAS_MOBILE}
  else not (${HAS_EMAIL} or ${HAS_MOBILE}) end)`;

const plainGuardians: ResourceSpec = {
  def: GUARDIANS,
  table: guardians,
  ...personLabel(guardians),
  computed: { unreachable: UNREACHABLE },
  // A new guardian's channel, unless given (or cleared): e-mail where an address is known, else SMS.
  async beforeWrite({ input, before }) {
    if (input.notify_by === null || (!before && input.notify_by === undefined))
      return { notify_by: defaultNotifyBy((input.email === undefined ? before?.email : input.email) as string | null | undefined) };
    return undefined;
  },
  links: {
    student_ids: { table: studentGuardians, tenantId: studentGuardians.tenantId, owner: studentGuardians.guardianId, other: studentGuardians.studentId },
  },
};

export const guardiansSpec: ResourceSpec = {
  ...plainGuardians,
  async afterWrite({ tx, ctx, before, after }) {
    const wasOn = before?.portal === true;
    if (after.portal !== true) {
      if (wasOn) await endPortal(tx, ctx.tenantId, after.id);
      return;
    }
    const guardian: InvitedGuardian = declaredRow(GUARDIANS, after);
    if (!wasOn) {
      await inviteGuardian(tx, ctx.tenantId, ctx.actor, ctx.origin, guardian);
      return;
    }
    const email = emailOf(after.email);
    if (email === emailOf(before?.email)) return;
    // A new address while she has access: she signs in with it from now on, or is invited at it.
    const user = await signInOf(tx, ctx.tenantId, after.id);
    if (!email || !user) {
      await inviteGuardian(tx, ctx.tenantId, ctx.actor, ctx.origin, guardian);
      return;
    }
    await refuseTakenEmail(tx, ctx.tenantId, after.id, email);
    await tx.execute(sql`update users set username = ${email}, email = ${email}, version = version + 1, updated_at = now()
      where tenant_id = ${ctx.tenantId} and id = ${user.id}`);
  },
  async remove(tx, ctx, before, options, registry) {
    await removeSignIn(tx, ctx.tenantId, before.id);
    // Her messages stay as sent, no longer hers: the foreign key's own SET NULL would clear their tenant too.
    await tx.execute(sql`update outbox set guardian_id = null where tenant_id = ${ctx.tenantId} and guardian_id = ${before.id}`);
    await deleteRow(tx, registry, ctx, plainGuardians, before.id, options);
  },
};
