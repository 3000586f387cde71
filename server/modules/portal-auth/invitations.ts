/**
 * A guardian's way into the portal: the invitation (a one-time link e-mailed to her, kept
 * here only as the SHA-256 hash of its token, good for 7 days), its acceptance (her sign-in,
 * a users row of role GUARDIAN whose username is her e-mail address), and its end (portal
 * off: invitations revoked, sign-in INACTIVE, sessions ended; deletion or erasure: sign-in
 * gone). Everything runs inside the caller's transaction, beside the guardian's own change.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { DomainError } from '../../../domain/index';
import type { Actor } from '../../context';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { recordHistory } from '../../engine/history';
import { revokeUserSessions } from '../auth/sessions';
import { refuseLookAlikeUsername } from '../auth/usernames';
import { announce } from '../notifications/create';
import { type Addressee, greeting, signature } from '../notifications/letter';
import { enqueueMessage } from '../messages/enqueue';

export const INVITATION_KIND = 'portal-invitation';
/** How long a link stays good after it is sent. */
export const INVITATION_DAYS = 7;
/** Where her changes to invitations are kept in history (read with the guardians' rights). */
export const INVITATION_HISTORY = 'portal-invitations';

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Her e-mail address as her username: trimmed, lower case. */
export const usernameOfEmail = (email: string) => email.trim().toLowerCase();

export interface InvitedGuardian {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  /** MOTHER, FATHER…: how the e-mail greets her. */
  relation?: string | null;
}

/** The users row of her sign-in, if she has one. */
export async function signInOf(tx: Tx, tenantId: number, guardianId: number): Promise<{ id: number; status: string } | undefined> {
  const [row] = await queryRows<{ id: number; status: string }>(
    tx,
    sql`select u.id, u.status from guardian_users gu join users u on u.tenant_id = gu.tenant_id and u.id = gu.user_id
        where gu.tenant_id = ${tenantId} and gu.guardian_id = ${guardianId}`,
  );
  return row;
}

/**
 * Refuses (409, `email-taken`) an address that is, or looks like, the username of an account
 * other than her own sign-in: a staff member's, or another guardian's.
 */
export async function refuseTakenEmail(tx: Tx, tenantId: number, guardianId: number, email: string): Promise<void> {
  const own = await signInOf(tx, tenantId, guardianId);
  try {
    await refuseLookAlikeUsername(tx, tenantId, usernameOfEmail(email), own?.id);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'conflict') {
      throw new DomainError(
        'conflict',
        "This e-mail address is another account's username.",
        { email: 'taken' },
        { details: { reason: 'email-taken', field: 'email' } },
      );
    }
    throw error;
  }
}

const revokePending = (tx: Tx, tenantId: number, guardianId: number) =>
  tx.execute(sql`update portal_invitations set revoked_at = now()
    where tenant_id = ${tenantId} and guardian_id = ${guardianId} and used_at is null and revoked_at is null`);

/** The invitation e-mail, in Greek (docs/rules.md, Messages to families: greeting and signature). */
export function invitationText(opts: { guardian: Addressee; centre: string; link: string; expiresAt: Date }) {
  const until = new Intl.DateTimeFormat('el-GR', { dateStyle: 'long', timeZone: 'Europe/Athens' }).format(opts.expiresAt);
  const subject = `Πρόσκληση στην πύλη γονέων · ${opts.centre}`;
  const body = [
    greeting(opts.guardian, 'el'),
    '',
    `το φροντιστήριο ${opts.centre} σάς προσκαλεί στην πύλη γονέων, όπου βλέπετε το πρόγραμμα, τις εργασίες, τις παρουσίες, τα δίδακτρα και τις αποδείξεις των παιδιών σας.`,
    'Για να ορίσετε τον κωδικό σας, ανοίξτε τον παρακάτω σύνδεσμο:',
    '',
    opts.link,
    '',
    `Ο σύνδεσμος ισχύει έως τις ${until} και χρησιμοποιείται μία φορά. Στη συνέχεια συνδέεστε με τη διεύθυνση e-mail σας και τον κωδικό σας.`,
    'Αν δεν περιμένατε αυτό το μήνυμα, αγνοήστε το.',
    '',
    ...signature(opts.centre, 'el'),
  ].join('\n');
  return { subject, body };
}

/**
 * Makes her a fresh invitation (the older ones stop working): the row, its e-mail in the
 * outbox (unless `mail` is false: the office hands her the link itself) and the history
 * entry, in the caller's transaction; answers the link. `origin` is the host the staff member
 * works on, which is the centre's own.
 */
export async function inviteGuardian(
  tx: Tx,
  tenantId: number,
  actor: Actor | null,
  origin: string | undefined,
  guardian: InvitedGuardian,
  opts: { mail?: boolean } = {},
): Promise<{ link: string; expires_at: string }> {
  if (!guardian.email?.trim()) throw new DomainError('validation', 'Portal access needs an e-mail address.', { portal: 'needs-email' });
  const email = usernameOfEmail(guardian.email);
  await refuseTakenEmail(tx, tenantId, guardian.id, email);
  await revokePending(tx, tenantId, guardian.id);
  const token = randomBytes(32).toString('base64url');
  const [row] = await queryRows<{ id: number; expires_at: Date | string; centre: string }>(
    tx,
    sql`insert into portal_invitations (tenant_id, guardian_id, token_hash, email, expires_at, created_by)
        values (${tenantId}, ${guardian.id}, ${hashToken(token)}, ${email}, now() + make_interval(days => ${INVITATION_DAYS}),
                ${actor?.kind === 'user' ? actor.id : null})
        returning id, expires_at, (select t.name from tenants t where t.id = ${tenantId}) as centre`,
  );
  const invitation = row!;
  const expiresAt = new Date(invitation.expires_at);
  const link = `${origin ?? ''}/invitation?token=${token}`;
  if (opts.mail !== false) {
    const { subject, body } = invitationText({
      guardian: { last_name: guardian.last_name, relation: guardian.relation ?? null },
      centre: invitation.centre,
      link,
      expiresAt,
    });
    await enqueueMessage(tx, {
      tenantId,
      kind: INVITATION_KIND,
      dedupeKey: `${INVITATION_KIND}:${invitation.id}`,
      recipient: email,
      guardianId: guardian.id,
      subject,
      body,
      params: { invitation_id: invitation.id },
    });
  }
  await recordHistory(tx, tenantId, actor, {
    entity: INVITATION_HISTORY,
    entityId: guardian.id,
    action: 'create',
    after: { email, expires_at: expiresAt.toISOString(), ...(opts.mail === false ? { handed: true } : {}) },
  });
  return { link, expires_at: expiresAt.toISOString() };
}

/** Ends her sessions at once: open notification streams close too. */
async function endSessions(tx: Tx, tenantId: number, userId: number, reason: string) {
  await revokeUserSessions(tx, tenantId, userId, reason);
  await announce(tx, tenantId, 'a', [userId]);
}

/** Portal off: her pending invitations revoked, her sign-in INACTIVE, her sessions ended. */
export async function endPortal(tx: Tx, tenantId: number, guardianId: number): Promise<void> {
  await revokePending(tx, tenantId, guardianId);
  const user = await signInOf(tx, tenantId, guardianId);
  if (!user) return;
  if (user.status !== 'INACTIVE') {
    await tx.execute(sql`update users set status = 'INACTIVE', version = version + 1, updated_at = now() where tenant_id = ${tenantId} and id = ${user.id}`);
  }
  await endSessions(tx, tenantId, user.id, 'portal-off');
}

/** The guardian is deleted or erased: her invitations and her sign-in go (sessions with it). */
export async function removeSignIn(tx: Tx, tenantId: number, guardianId: number): Promise<void> {
  await tx.execute(sql`delete from portal_invitations where tenant_id = ${tenantId} and guardian_id = ${guardianId}`);
  const user = await signInOf(tx, tenantId, guardianId);
  if (!user) return;
  await endSessions(tx, tenantId, user.id, 'guardian-removed');
  await tx.execute(sql`delete from users where tenant_id = ${tenantId} and id = ${user.id} and role = 'GUARDIAN'`);
}

export interface OpenInvitation {
  id: number;
  guardian_id: number;
  email: string;
  expires_at: string;
  first_name: string;
  last_name: string;
}

/**
 * The invitation a token names, if it can still be used; else the error her link answers:
 * unknown, replaced or portal off (invalid), past its time (expired), spent (used).
 * `lock` holds it for the acceptance's transaction.
 */
export async function openInvitation(tx: Tx, tenantId: number, token: string, lock = false): Promise<OpenInvitation> {
  const [row] = await queryRows<OpenInvitation & { used: boolean; revoked: boolean; expired: boolean; portal: boolean }>(
    tx,
    sql`select i.id, i.guardian_id, i.email, i.expires_at, g.first_name, g.last_name, g.portal,
          i.used_at is not null as used, i.revoked_at is not null as revoked, i.expires_at <= now() as expired
        from portal_invitations i join guardians g on g.tenant_id = i.tenant_id and g.id = i.guardian_id
        where i.tenant_id = ${tenantId} and i.token_hash = ${hashToken(token)}
        ${lock ? sql`for update of i` : sql``}`,
  );
  if (!row || row.revoked || !row.portal) throw new DomainError('invitation-invalid');
  if (row.used) throw new DomainError('invitation-used');
  if (row.expired) throw new DomainError('invitation-expired');
  return { ...row, expires_at: new Date(row.expires_at).toISOString() };
}

/**
 * Spends the token: her sign-in made (or, invited again, re-activated with the new password
 * and today's address as username), the link used. Her older sessions end.
 */
export async function acceptInvitation(tx: Tx, tenantId: number, token: string, passwordHash: string): Promise<void> {
  const invitation = await openInvitation(tx, tenantId, token, true);
  await refuseTakenEmail(tx, tenantId, invitation.guardian_id, invitation.email);
  const user = await signInOf(tx, tenantId, invitation.guardian_id);
  let userId: number;
  if (user) {
    userId = user.id;
    await tx.execute(sql`update users set username = ${invitation.email}, email = ${invitation.email}, password_hash = ${passwordHash},
        first_name = ${invitation.first_name}, last_name = ${invitation.last_name}, status = 'ACTIVE', version = version + 1, updated_at = now()
      where tenant_id = ${tenantId} and id = ${user.id}`);
    await endSessions(tx, tenantId, user.id, 'password-changed');
  } else {
    const [made] = await queryRows<{ id: number }>(
      tx,
      sql`insert into users (tenant_id, username, password_hash, role, first_name, last_name, email, status)
          values (${tenantId}, ${invitation.email}, ${passwordHash}, 'GUARDIAN', ${invitation.first_name}, ${invitation.last_name}, ${invitation.email}, 'ACTIVE')
          returning id`,
    );
    userId = made!.id;
    await tx.execute(sql`insert into guardian_users (tenant_id, guardian_id, user_id) values (${tenantId}, ${invitation.guardian_id}, ${userId})`);
  }
  await tx.execute(sql`update portal_invitations set used_at = now() where tenant_id = ${tenantId} and id = ${invitation.id}`);
  await recordHistory(tx, tenantId, null, {
    entity: INVITATION_HISTORY,
    entityId: invitation.guardian_id,
    action: 'update',
    before: { accepted: false },
    after: { accepted: true, user_id: userId },
  });
}

/** The link an invitation e-mail carries (its text is written by invitationText). */
const LINK_IN_MAIL = /\S*\/invitation\?token=[A-Za-z0-9_-]+/;

/**
 * What the staff see of her portal access (GuardianPortalStateAnswer's data). `mail`: whether
 * e-mail can leave at all (SMTP_URL set). Without it her invitation waits unsent, so the screen
 * must not say she was invited; `showLink` (staff who may send it again) then gets the link
 * of her pending invitation to hand her another way.
 */
export async function portalState(tx: Tx, tenantId: number, guardianId: number, opts: { mail: boolean; showLink: boolean }) {
  const [row] = await queryRows<{
    portal: boolean;
    invited_at: Date | string | null;
    invitation_expires_at: Date | string | null;
    signed_up_at: Date | string | null;
    last_sign_in_at: Date | string | null;
    invitation_mail: string | null;
  }>(
    tx,
    sql`select g.portal,
          i.created_at as invited_at, i.expires_at as invitation_expires_at,
          case when ${!opts.mail && opts.showLink} and gu.created_at is null and i.expires_at > now() and i.used_at is null then
            (select o.body from outbox o where o.tenant_id = g.tenant_id and o.kind = ${INVITATION_KIND}
               and o.params->>'invitation_id' = i.id::text order by o.id desc limit 1)
          end as invitation_mail,
          gu.created_at as signed_up_at,
          (select max(s.created_at) from sessions s where s.tenant_id = g.tenant_id and s.user_id = gu.user_id) as last_sign_in_at
        from guardians g
        left join lateral (select id, created_at, expires_at, used_at from portal_invitations pi
                           where pi.tenant_id = g.tenant_id and pi.guardian_id = g.id and pi.revoked_at is null
                           order by pi.created_at desc, pi.id desc limit 1) i on true
        left join guardian_users gu on gu.tenant_id = g.tenant_id and gu.guardian_id = g.id
        where g.tenant_id = ${tenantId} and g.id = ${guardianId}`,
  );
  if (!row) throw new DomainError('not-found');
  const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    portal: row.portal,
    invited_at: iso(row.invited_at),
    invitation_expires_at: iso(row.invitation_expires_at),
    signed_up_at: iso(row.signed_up_at),
    last_sign_in_at: iso(row.last_sign_in_at),
    mail: opts.mail,
    invitation_link: LINK_IN_MAIL.exec(row.invitation_mail ?? '')?.[0] ?? null,
  };
}
