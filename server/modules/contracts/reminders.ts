/**
 * What ADMIN sees of a contract's reminders (docs/rules.md, Reminders): the outbox rows written
 * for it, a family's reminder with this contract's months and amount (the message names the rest).
 */
import { sql } from 'drizzle-orm';
import { MANAGERS } from '../../../domain/access';
import { DomainError } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { findRow } from '../../engine/read';
import type { Registry } from '../../engine/registry';
import type { Ctx } from '../../engine/spec';
import { REMINDER_KIND } from '../../jobs/reminders';
import { contractsSpec } from './spec';

interface Row {
  id: number;
  recipient: string;
  guardian_id: number | null;
  guardian_name: string | null;
  subject: string;
  body: string;
  months: string[] | null;
  amount: number | string | null;
  created_at: string;
  sent_at: string | null;
  cancelled_at: string | null;
  attempts: number;
  last_error: string | null;
}

export async function contractReminders(tx: Tx, registry: Registry, ctx: Ctx, id: number) {
  if (!ctx.actor || !MANAGERS.includes(ctx.actor.role)) throw new DomainError('forbidden', 'Only an administrator sees the reminders sent.');
  if (!(await findRow(tx, registry, ctx, contractsSpec, id))) throw new DomainError('not-found');
  const rows = await queryRows<Row>(
    tx,
    sql`
select o.id, o.recipient, o.guardian_id, nullif(trim(coalesce(g.first_name, '') || ' ' || coalesce(g.last_name, '')), '') as guardian_name,
  o.subject, o.body,
  array(select jsonb_array_elements_text(coalesce(mine.part->'months', o.params->'months', '[]'::jsonb))) as months,
  coalesce((mine.part->>'amount')::bigint, (o.params->>'amount')::bigint, 0) as amount,
  to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  to_char(o.sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as sent_at,
  to_char(o.cancelled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as cancelled_at,
  o.attempts, o.last_error
from outbox o
-- a family's reminder names each of its contracts (params.contracts); an older one named one (params.contract_id)
left join lateral (select c as part from jsonb_array_elements(coalesce(o.params->'contracts', '[]'::jsonb)) c
                   where c->>'contract_id' = ${String(id)} limit 1) mine on true
left join guardians g on g.tenant_id = o.tenant_id and g.id = o.guardian_id
where o.tenant_id = ${ctx.tenantId} and o.kind = ${REMINDER_KIND}
  and (o.params->>'contract_id' = ${String(id)} or mine.part is not null)
order by o.created_at desc, o.id desc
limit 200`,
  );
  return rows.map((r) => ({ ...r, months: r.months ?? [], amount: Number(r.amount ?? 0), attempts: Number(r.attempts) }));
}
