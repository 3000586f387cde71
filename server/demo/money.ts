/**
 * DEMO_DATA=1: the demo centre's money — a contract for the school year for every student,
 * the payments of the months up to today (most with a receipt; a few months left unpaid or
 * paid in part; books charged as extras) and a year of expenses (rent, salaries, utilities,
 * supplies). Written through the same CRUD code as the API, once: a centre that has contracts
 * is left alone. Everything follows from the student's position, so every run is the same.
 */
import { asc, eq } from 'drizzle-orm';
import { contractMonths, monthsFromTo, nextMonth, type ContractTerms } from '../../domain/index';
import type { Database } from '../db/client';
import { contractCategories, contracts, students } from '../db/schema/index';
import { contractsSpec } from '../modules/contracts/spec';
import { expenseCategoriesSpec, expensesSpec } from '../modules/expenses/spec';
import { paymentsSpec } from '../modules/payments/spec';
import type { Registry } from '../engine/registry';
import { add, fillOnce } from './fill';
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

const day = (month: string, d: number) => `${month}-${String(Math.min(d, 28)).padStart(2, '0')}`;

export async function ensureDemoMoney(database: Database, registry: Registry, tenantId: number, today = new Date().toISOString().slice(0, 10)): Promise<void> {
  await fillOnce(database, registry, tenantId, contracts, async (tx, ctx) => {
    const studentIds = (await tx.select({ id: students.id }).from(students).where(eq(students.tenantId, tenantId)).orderBy(asc(students.id))).map((r) => r.id);
    const categories = await tx
      .select({ id: contractCategories.id, name: contractCategories.name })
      .from(contractCategories)
      .where(eq(contractCategories.tenantId, tenantId));
    const categoryId = (name: string) => categories.find((c) => c.name === name)?.id ?? categories[0]?.id ?? null;

    const term = schoolYear(today);
    const thisMonth = today.slice(0, 7);
    let receipt = 1000;
    for (const [i, studentId] of studentIds.entries()) {
      // Most start in September; every seventh joins in October, every eleventh takes private lessons.
      const start_date = i % 7 === 6 ? `${term.start.slice(0, 7).replace(/-09$/, '-10')}-05` : term.start;
      const terms: ContractTerms = {
        start_date,
        end_date: term.end,
        register_cost: i % 8 === 3 ? 0 : 5000,
        month_cost: MONTH_COSTS[i % MONTH_COSTS.length]!,
        with_receipt: i % 4 !== 1,
      };
      const contract = await add(tx, ctx, contractsSpec, {
        student_id: studentId,
        category_id: categoryId(i % 11 === 10 ? 'Ιδιαίτερα' : 'Ετήσιο'),
        ...terms,
        notes: i % 4 === 1 ? 'Χωρίς απόδειξη, κατόπιν συνεννόησης.' : null,
      });
      const pay = (kind: string, month: string | null, amount: number, paidOn: string) =>
        add(tx, ctx, paymentsSpec, {
          contract_id: contract.id,
          kind,
          month,
          amount,
          method: METHODS[i % METHODS.length],
          bill_number: terms.with_receipt ? String(receipt++) : null,
          paid_on: paidOn > today ? today : paidOn,
          description: kind === 'EXTRA' ? 'Βιβλία και φυλλάδια' : null,
        });
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
          await pay('MONTHLY', month, terms.month_cost / 2, day(month, 3 + (i % 7)));
          if (!late) await pay('MONTHLY', month, terms.month_cost / 2, day(month, 20));
          continue;
        }
        await pay('MONTHLY', month, terms.month_cost, day(month, 2 + (i % 10)));
      }
    }

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
