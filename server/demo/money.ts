/**
 * DEMO_DATA=1: the demo centre's money — a contract for the school year for every student,
 * the payments of the months up to today (most with a receipt; a few months left unpaid or
 * paid in part; books charged as extras) and a year of expenses (rent, salaries, utilities,
 * supplies). Written through the same CRUD code as the API, once: a centre that has contracts
 * is left alone. Everything follows from the student's position, so every run is the same.
 */
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { contractMonths, monthFee, monthsFromTo, nextMonth, type ContractTerms } from '../../domain/index';
import type { Database, Tx } from '../db/types';
import { queryRows } from '../db/statements';
import { centreSettings, contractCategories, contracts, receiptPayments, students } from '../db/schema/index';
import { updateRow } from '../engine/write';
import { notify } from '../modules/notifications/create';
import { cancelReceipt } from '../modules/receipts/issue';
import { loadSettings } from '../modules/settings/store';
import { contractsSpec } from '../modules/contracts/spec';
import { expenseCategoriesSpec, expensesSpec } from '../modules/expenses/spec';
import { paymentsSpec } from '../modules/payments/spec';
import type { Registry } from '../engine/registry';
import { withdrawContract } from '../modules/contracts/lifecycle';
import { add, fillOnce, type DemoCtx } from './fill';
import { schoolYear } from './lessons';

const METHODS = ['CASH', 'CASH', 'BANK_ACCOUNT', 'CREDIT_CARD'] as const;
const MONTH_COSTS = [9000, 11000, 12000, 14000, 16000];

/** [category, description, amount in cents, method, with receipt] each month. */
const MONTHLY_EXPENSES: Array<[string, string, number, string, boolean]> = [
  ['Ενοίκιο', 'Ενοίκιο αιθουσών', 120000, 'BANK_ACCOUNT', true],
  ['Μισθοί', 'Μισθοδοσία καθηγητών', 480000, 'BANK_ACCOUNT', true],
  ['Λογαριασμοί', 'ΔΕΗ', 18000, 'BANK_ACCOUNT', true],
  ['Λογαριασμοί', 'Νερό', 3500, 'CASH', true],
  ['Λογαριασμοί', 'Τηλέφωνο και internet', 6000, 'CREDIT_CARD', true],
  ['Αναλώσιμα', 'Χαρτί, μελάνια, μαρκαδόροι', 4500, 'CASH', false],
  ['Καθαριότητα', 'Καθαρισμός χώρων', 20000, 'CASH', false],
];

/** AADE's refusals as the myDATA job stores them: "<message> (<code>)". */
const DEMO_REFUSALS = [
  'Το ΑΦΜ του εκδότη δεν ανήκει στον χρήστη (203)',
  'Ο ΑΦΜ του λήπτη δεν είναι έγκυρος (102)',
  'Το άθροισμα των ποσών των γραμμών δεν συμφωνεί με το σύνολο του παραστατικού (204)',
];

/** The demo centre as the issuer of its receipts (a valid ΑΦΜ; myDATA off until a centre turns it on). */
async function demoIssuer(tx: Tx, tenantId: number) {
  await loadSettings(tx, tenantId);
  await tx
    .update(centreSettings)
    .set({
      legalName: 'Φροντιστήριο Πρόοδος Ο.Ε.',
      taxId: '094014201',
      taxOffice: 'Α΄ Αθηνών',
      address: 'Πανεπιστημίου 20',
      city: 'Αθήνα',
      postalCode: '10679',
      phone: '2103456789',
      email: 'info@proodos.example',
    })
    .where(eq(centreSettings.tenantId, tenantId));
}

const day = (month: string, d: number) => `${month}-${String(Math.min(d, 28)).padStart(2, '0')}`;

export async function ensureDemoMoney(database: Database, registry: Registry, tenantId: number, today = new Date().toISOString().slice(0, 10)): Promise<void> {
  await fillOnce(database, registry, tenantId, contracts, async (tx, ctx) => {
    const studentIds = (await tx.select({ id: students.id }).from(students).where(eq(students.tenantId, tenantId)).orderBy(asc(students.id))).map((r) => r.id);
    const categories = await tx
      .select({ id: contractCategories.id, name: contractCategories.name })
      .from(contractCategories)
      .where(eq(contractCategories.tenantId, tenantId));
    const categoryId = (name: string) => categories.find((c) => c.name === name)?.id ?? categories[0]?.id ?? null;

    // Each contract is paid by the student's first guardian; a younger sibling of a family
    // gets the centre's 10% sibling discount.
    const families = await queryRows<{ student_id: number; guardian_id: number; rank: number }>(
      tx,
      sql`select student_id, guardian_id, row_number() over (partition by guardian_id order by student_id)::int as rank
          from (select distinct on (student_id) student_id, guardian_id from student_guardians
                where tenant_id = ${tenantId} order by student_id, guardian_id) f`,
    );
    const familyOf = new Map(families.map((f) => [Number(f.student_id), f]));

    const term = schoolYear(today);
    const thisMonth = today.slice(0, 7);
    await demoIssuer(tx, tenantId);
    const issued: number[] = [];
    for (const [i, studentId] of studentIds.entries()) {
      // Most start in September; every seventh joins in October, every eleventh takes private lessons.
      const start_date = i % 7 === 6 ? `${term.start.slice(0, 7).replace(/-09$/, '-10')}-05` : term.start;
      const terms: ContractTerms = {
        start_date,
        end_date: term.end,
        register_cost: i % 8 === 3 ? 0 : 5000,
        month_cost: MONTH_COSTS[i % MONTH_COSTS.length]!,
        with_receipt: i % 4 !== 1,
        discount_percent: (familyOf.get(studentId)?.rank ?? 1) > 1 ? 10 : 0,
      };
      const fee = monthFee(terms);
      const contract = await add(tx, ctx, contractsSpec, {
        student_id: studentId,
        payer_guardian_id: familyOf.get(studentId)?.guardian_id ?? null,
        category_id: categoryId(i % 11 === 10 ? 'Ιδιαίτερα' : 'Ετήσιο'),
        ...terms,
        notes: i % 4 === 1 ? 'Χωρίς απόδειξη, κατόπιν συνεννόησης.' : null,
      });
      const pay = async (kind: string, month: string | null, amount: number, paidOn: string) => {
        const payment = await add(tx, ctx, paymentsSpec, {
          contract_id: contract.id,
          kind,
          month,
          amount,
          method: METHODS[i % METHODS.length],
          paid_on: paidOn > today ? today : paidOn,
          description: kind === 'EXTRA' ? 'Βιβλία και φυλλάδια' : null,
        });
        if (typeof payment.receipt_id === 'number') issued.push(payment.receipt_id);
        return payment;
      };
      const first = start_date.slice(0, 7);
      if (first > thisMonth) continue;
      if (terms.register_cost > 0) await pay('REGISTER', null, terms.register_cost, start_date);
      if (i % 6 === 0) await pay('EXTRA', null, 2500, day(nextMonth(first), 12));
      for (const month of contractMonths(terms).filter((m) => m <= thisMonth)) {
        const late = month === thisMonth || nextMonth(month) === thisMonth;
        // Some families owe this month (or the last one too); a few pay half now and half later.
        if (late && i % 5 === 0) continue;
        if (month === thisMonth && i % 3 === 0) continue;
        if (i % 9 === 4) {
          await pay('MONTHLY', month, Math.floor(fee / 2), day(month, 3 + (i % 7)));
          if (!late) await pay('MONTHLY', month, fee - Math.floor(fee / 2), day(month, 20));
          continue;
        }
        await pay('MONTHLY', month, fee, day(month, 2 + (i % 10)));
      }
    }

    // Two receipts issued by mistake, answered by credit receipts; their payments issued again.
    for (const id of [issued[2], issued[7]]) {
      if (id === undefined) continue;
      const credit = await cancelReceipt(tx, tenantId, ctx.actor, id, 'Λάθος στοιχεία πελάτη', today);
      for (const paymentId of (
        await tx
          .select({ id: receiptPayments.paymentId })
          .from(receiptPayments)
          .where(and(eq(receiptPayments.tenantId, tenantId), eq(receiptPayments.receiptId, credit.id)))
      ).map((r) => r.id)) {
        await updateRow(tx, ctx.registry, ctx, paymentsSpec, paymentId, { with_receipt: true }, undefined);
      }
    }
    // A few receipts refused by myDATA, as the sending job leaves them (status FAILED with
    // AADE's message and code), so the refused state shows in the demo; picked by position.
    for (const [k, id] of [issued[4], issued[11], issued[19]].entries()) {
      if (id === undefined) continue;
      const message = DEMO_REFUSALS[k % DEMO_REFUSALS.length]!;
      const [refused] = await queryRows<{ series: string; number: number }>(
        tx,
        sql`update receipts set status = 'FAILED', error = ${message}, next_attempt_at = null
            where tenant_id = ${tenantId} and id = ${id} and status = 'ISSUED' and mark is null returning series, number`,
      );
      // ADMIN is told in the app, as by the job.
      if (refused)
        await notify(tx, tenantId, [
          {
            kind: 'receipt-refused',
            params: { receipt: `${refused.series}-${refused.number}`, message },
            link: `/receipts/?mode=view&receipt=${id}`,
            recipients: sql`select id from users where tenant_id = ${tenantId} and status = 'ACTIVE' and role = 'ADMIN'`,
            dedupeKey: `receipt-refused:${id}:demo`,
          },
        ]);
    }
    // A student who left this month: her contract withdrawn (docs/rules.md, Contracts).
    await withdrawDemoLeaver(tx, registry, ctx, studentIds[12], today);

    const expenseCategory = new Map<string, number>();
    for (const name of new Set(MONTHLY_EXPENSES.map(([c]) => c))) expenseCategory.set(name, (await add(tx, ctx, expenseCategoriesSpec, { name })).id);
    const yearAgo = `${Number(thisMonth.slice(0, 4)) - 1}-${thisMonth.slice(5, 7)}`;
    for (const month of monthsFromTo(nextMonth(yearAgo), thisMonth)) {
      for (const [k, [category, description, amount, method, withReceipt]] of MONTHLY_EXPENSES.entries()) {
        const date = day(month, 1 + k * 3);
        if (date > today) continue;
        await add(tx, ctx, expensesSpec, {
          date,
          amount,
          description,
          category_id: expenseCategory.get(category),
          method,
          bill_number: withReceipt ? `${month.replace('-', '')}-${k + 1}` : null,
        });
      }
    }
  });
}

/** Withdraws the contracts of one demo student that have started, on `today`. */
async function withdrawDemoLeaver(tx: Tx, registry: Registry, ctx: DemoCtx, studentId: number | undefined, today: string) {
  if (studentId === undefined) return;
  const started = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(eq(contracts.tenantId, ctx.tenantId), eq(contracts.studentId, studentId), lte(contracts.startDate, today), gte(contracts.endDate, today)));
  for (const { id } of started) await withdrawContract(tx, registry, ctx, id, { on: today, reason: 'Μετακόμιση σε άλλη πόλη' });
}
