/**
 * docs/rules.md, Guardians: a contract's payer is one of its student's guardians, or nobody (an
 * adult student pays). Checked on every write that names a payer or moves the contract to
 * another student, so a receipt never names another family's parent.
 */
import { sql } from 'drizzle-orm';
import { DomainError } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';

const idOf = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);

export async function refuseForeignPayer(tx: Tx, tenantId: number, input: Record<string, unknown>, before: Record<string, unknown> | null | undefined) {
  if (before && !('payer_guardian_id' in input) && !('student_id' in input)) return;
  const payer = idOf('payer_guardian_id' in input ? input.payer_guardian_id : before?.payer_guardian_id);
  const student = idOf('student_id' in input ? input.student_id : before?.student_id);
  if (payer === null || student === null) return;
  const [link] = await queryRows<{ n: number }>(
    tx,
    sql`select 1 as n from student_guardians where tenant_id = ${tenantId} and student_id = ${student} and guardian_id = ${payer}`,
  );
  if (link) return;
  throw new DomainError(
    'validation',
    "The payer must be one of the student's guardians.",
    { payer_guardian_id: 'not-a-guardian' },
    { details: { reason: 'payer-not-guardian' } },
  );
}
