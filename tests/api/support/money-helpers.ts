// Shared setup of the money API tests: a centre with staff, classes, students and a contract
// category, and short ways to write contracts and payments through the API.
import { expect } from 'vitest';
import type { Response } from 'light-my-request';
import type { TestApp } from './harness';
import { json, show } from './api-helpers';

export type Row = Record<string, any>;

export interface MoneyWorld {
  token: { ROOT: string; ADMIN: string; SECRETARY: string };
  students: Row[];
  classes: Row[];
  category: Row;
}

export async function created(res: Response): Promise<Row> {
  expect(res.statusCode, show(res)).toBe(201);
  return json(res).data as Row;
}

export async function makeMoneyWorld(t: TestApp, students = 4): Promise<MoneyWorld> {
  const root = (await t.signIn(t.root.username, t.root.password)).token;
  const token = {
    ROOT: root,
    ADMIN: (await t.createUser(root, { role: 'ADMIN' })).token,
    SECRETARY: (await t.createUser(root, { role: 'SECRETARY' })).token,
  };
  const post = (url: string, body: unknown) => t.request({ method: 'POST', url, token: token.ADMIN, body });
  const classes = [await created(await post('/api/classes', { name: 'Α΄ Λυκείου' })), await created(await post('/api/classes', { name: 'Β΄ Λυκείου' }))];
  const category = await created(await post('/api/contract-categories', { name: 'Ετήσιο' }));
  const list: Row[] = [];
  for (let i = 0; i < students; i++) {
    list.push(await created(await post('/api/students', { first_name: `Μαθητής${i}`, last_name: 'Δοκιμής', class_ids: [classes[i % 2]!.id] })));
  }
  return { token, students: list, classes, category };
}

export const contractBody = (w: MoneyWorld, over: Row = {}): Row => ({
  student_id: w.students[0]!.id,
  category_id: w.category.id,
  start_date: '2026-09-15',
  end_date: '2027-06-30',
  register_cost: 5000,
  month_cost: 12000,
  with_receipt: true,
  ...over,
});

export const paymentBody = (contractId: number, over: Row = {}): Row => ({
  contract_id: contractId,
  kind: 'MONTHLY',
  month: '2026-09',
  amount: 12000,
  method: 'CASH',
  paid_on: '2026-09-20',
  ...over,
});
