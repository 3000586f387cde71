/**
 * /api/settings: the centre's own details (the issuer block of its receipts), its receipt
 * series, myDATA switch and credentials, and the reminders' schedule. ADMIN (and ROOT) only.
 * PATCH carries the `version` read, as every update; the subscription key is write-only:
 * stored encrypted, answered only as `mydata_subscription_key_set`, redacted in the history.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, oneJsonSchema, type FieldErrors } from '../../../domain/index';
import { isValidTaxId } from '../../../domain/tax-id';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { centreSettings } from '../../db/schema/index';
import { recordHistory } from '../../engine/history';
import { ctxOf } from '../../engine/routes';
import { seal, settingsKey } from './secret-box';
import { answerOf, loadSettings, unsentReceipts } from './store';
import { SENDER_PATTERN } from '../messages/sms';

const AREA = 'settings' as const;

const text = (max: number) => z.string().trim().max(max).nullable().optional();
const blank = (body: unknown) => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [k, v] of Object.entries(out)) if (typeof v === 'string' && v.trim() === '' && k !== 'receipt_series') out[k] = null;
  return out;
};

export const SettingsPatch = z.preprocess(
  blank,
  z.strictObject({
    version: z.number().int().min(1),
    legal_name: text(200),
    tax_id: z
      .string()
      .trim()
      .regex(/^[0-9]{9}$/)
      .nullable()
      .optional(),
    tax_office: text(100),
    address: text(200),
    city: text(100),
    postal_code: z
      .string()
      .trim()
      .regex(/^[0-9]{3} ?[0-9]{2}$/)
      .nullable()
      .optional(),
    phone: text(30),
    email: z.email().max(200).nullable().optional(),
    receipt_series: z
      .string()
      .trim()
      .regex(/^[\p{L}\p{N}]{1,10}$/u)
      .optional(),
    mydata_enabled: z.boolean().optional(),
    mydata_user_id: text(100),
    mydata_subscription_key: z.string().trim().min(1).max(200).nullable().optional(),
    /** Turning myDATA on with receipts issued before: send those too (true), or only receipts from now on (false). */
    mydata_send_earlier: z.boolean().optional(),
    reminder_day: z.number().int().min(1).max(28).optional(),
    reminder_repeat_days: z.number().int().min(1).max(90).optional(),
    /** The SMS sender name: 1-11 Latin letters, digits and spaces, one letter at least (what networks accept). */
    sms_sender: z.string().trim().regex(SENDER_PATTERN).nullable().optional(),
  }),
);

const ANSWER = oneJsonSchema({
  type: 'object',
  properties: {
    legal_name: { type: ['string', 'null'] },
    tax_id: { type: ['string', 'null'] },
    tax_office: { type: ['string', 'null'] },
    address: { type: ['string', 'null'] },
    city: { type: ['string', 'null'] },
    postal_code: { type: ['string', 'null'] },
    phone: { type: ['string', 'null'] },
    email: { type: ['string', 'null'] },
    receipt_series: { type: 'string' },
    mydata_enabled: { type: 'boolean' },
    mydata_user_id: { type: ['string', 'null'] },
    mydata_subscription_key_set: { type: 'boolean' },
    mydata_since: { type: ['string', 'null'] },
    mydata_unsent: { type: 'integer' },
    reminder_day: { type: 'integer' },
    reminder_repeat_days: { type: 'integer' },
    sms_sender: { type: ['string', 'null'] },
    version: { type: 'integer' },
    updated_at: { type: 'string' },
  },
});

const COLUMNS = {
  legal_name: 'legalName',
  tax_id: 'taxId',
  tax_office: 'taxOffice',
  address: 'address',
  city: 'city',
  postal_code: 'postalCode',
  phone: 'phone',
  email: 'email',
  receipt_series: 'receiptSeries',
  mydata_enabled: 'mydataEnabled',
  mydata_user_id: 'mydataUserId',
  reminder_day: 'reminderDay',
  reminder_repeat_days: 'reminderRepeatDays',
  sms_sender: 'smsSender',
} as const;

export const settingsRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '',
    {
      config: { access: { area: AREA, action: 'read' } },
      schema: { tags: ['settings'], summary: "The centre's details, receipt series, myDATA and reminder settings", response: { 200: ANSWER } },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const answer = await withTenant(database, ctx.tenantId, async (tx) =>
        answerOf(await loadSettings(tx, ctx.tenantId), await unsentReceipts(tx, ctx.tenantId)),
      );
      return { data: answer };
    },
  );

  app.patch(
    '',
    {
      config: { access: { area: AREA, action: 'update' } },
      schema: {
        tags: ['settings'],
        summary: 'Changes the sent fields (with the version read); the subscription key is write-only',
        body: SettingsPatch,
        response: { 200: ANSWER },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const body = request.body;
      const fields: FieldErrors = {};
      if (body.tax_id && !isValidTaxId(body.tax_id)) fields.tax_id = 'invalid';
      if (Object.keys(fields).length) throw new DomainError('validation', 'The tax number (ΑΦΜ) is not valid.', fields);
      const key = body.mydata_subscription_key ? seal(await settingsKey(database), body.mydata_subscription_key) : body.mydata_subscription_key;

      const row = await withTenant(database, ctx.tenantId, async (tx) => {
        const before = await loadSettings(tx, ctx.tenantId, true);
        if (body.version !== before.version) throw new DomainError('stale');
        const set: Partial<typeof centreSettings.$inferInsert> = {};
        const changedInput: Record<string, unknown> = {};
        for (const [name, column] of Object.entries(COLUMNS)) {
          const value = (body as Record<string, unknown>)[name];
          if (value === undefined) continue;
          (set as Record<string, unknown>)[column] = value;
          changedInput[name] = value;
        }
        if (key !== undefined) set.mydataSubscriptionKey = key;
        // myDATA on needs the centre's credentials (the user id and a key, given now or before).
        const enabled = set.mydataEnabled ?? before.mydataEnabled;
        const userId = set.mydataUserId !== undefined ? set.mydataUserId : before.mydataUserId;
        const hasKey = key !== undefined ? Boolean(key) : Boolean(before.mydataSubscriptionKey);
        // …and the issuer's legal name and ΑΦΜ, which every document sent carries.
        const legalName = set.legalName !== undefined ? set.legalName : before.legalName;
        const taxId = set.taxId !== undefined ? set.taxId : before.taxId;
        if (enabled && (!userId || !hasKey || !legalName || !taxId)) {
          const missing: FieldErrors = {};
          if (!userId) missing.mydata_user_id = 'required';
          if (!hasKey) missing.mydata_subscription_key = 'required';
          if (!legalName) missing.legal_name = 'required';
          if (!taxId) missing.tax_id = 'required';
          throw new DomainError('validation', 'myDATA needs the centre’s legal name, ΑΦΜ, AADE user id and subscription key.', missing);
        }
        // Turned on with receipts already issued: which of them AADE gets is the centre's
        // choice (they may have been filed another way), never a silent burst of every one.
        const unsent = await unsentReceipts(tx, ctx.tenantId);
        if (enabled && !before.mydataEnabled) {
          if (unsent > 0 && body.mydata_send_earlier === undefined)
            throw new DomainError(
              'validation',
              `${unsent} receipts issued before are not registered with myDATA: say whether to send them too or only the receipts issued from now on.`,
              { mydata_send_earlier: 'required' },
            );
          set.mydataSince = body.mydata_send_earlier === false ? new Date() : null;
        }
        const [after] = await tx
          .update(centreSettings)
          .set({ ...set, version: sql`${centreSettings.version} + 1`, updatedAt: new Date() })
          .where(eq(centreSettings.tenantId, ctx.tenantId))
          .returning();
        if (!after) throw new DomainError('not-found');
        const { version: _bv, updated_at: _bu, mydata_unsent: _bn, ...beforeAnswer } = answerOf(before, unsent);
        const { version: _av, updated_at: _au, mydata_unsent: _an, ...afterAnswer } = answerOf(after, unsent);
        const secrets = key !== undefined ? ['mydata_subscription_key'] : [];
        await recordHistory(tx, ctx.tenantId, ctx.actor, {
          entity: 'settings',
          entityId: ctx.tenantId,
          action: 'update',
          before: beforeAnswer,
          after: key !== undefined ? { ...afterAnswer, mydata_subscription_key: '' } : afterAnswer,
          secrets,
        });
        return answerOf(after, unsent);
      });
      return { data: row };
    },
  );
};
