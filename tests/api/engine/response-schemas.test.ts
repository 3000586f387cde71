// What a read answers is what the declaration names: every declared resource, listed and read
// one by one on a filled demo centre (a resource it lacks gets a row from its declaration), carries only its declared fields (never a write-only one
// such as a password), the system fields, the labels beside its references, and the few values
// its server spec shows beside them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelKey, RESOURCES, type ResourceDef } from '../../../domain/index';
import { expectStatus, json } from '../support/api-helpers';
import { validBody } from '../support/declared-bodies';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

/** Values a server spec adds beside the declaration, by resource. */
const SHOWN: Record<string, string[]> = {
  teachers: ['user_id', 'deleted'],
  lessons: ['color', 'replaced_by'],
  contracts: ['unpaid_months', 'unpaid_amount', 'due_months', 'payer_name', 'payer_phone', 'family_unpaid'],
  payments: ['student', 'receipt_id'],
  expenses: ['with_receipt'],
};

function named(def: ResourceDef): Set<string> {
  const names = new Set(['id', 'version', 'created_at', 'updated_at', ...(SHOWN[def.name] ?? [])]);
  for (const f of def.fields) {
    if (f.writeOnly) continue;
    names.add(f.name);
    if (f.reference) names.add(labelKey(f));
  }
  return names;
}

const unnamed = (def: ResourceDef, row: Record<string, unknown>) => Object.keys(row).filter((k) => !named(def).has(k));

describe.each(DATABASE_KINDS)('answers name only declared fields on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;

  beforeAll(async () => {
    t = await startApp(kind, { demoData: true });
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it.each(Object.values(RESOURCES).map((def) => [def.name, def] as const))('%s: list rows and a read row carry only named fields', async (_name, def) => {
    const listed = () => t.request({ method: 'GET', url: `/api/${def.name}?_start=0&_end=50`, token: rootToken });
    let list = await listed();
    expectStatus(list, 200);
    // A resource the demo centre does not fill (one declared after it) gets a row from its
    // declaration, so no resource needs demo rows to be checked.
    if (json(list).data.length === 0) {
      expectStatus(await t.request({ method: 'POST', url: `/api/${def.name}`, token: rootToken, body: validBody(def, { tag: 'schema' }) }), 201);
      list = await listed();
    }
    const rows = json(list).data as Record<string, unknown>[];
    expect(rows.length, `${def.name} has rows`).toBeGreaterThan(0);
    for (const row of rows) expect(unnamed(def, row)).toEqual([]);

    const one = await t.request({ method: 'GET', url: `/api/${def.name}/${rows[0]!.id}`, token: rootToken });
    expectStatus(one, 200);
    expect(unnamed(def, json(one).data)).toEqual([]);
    expect(JSON.stringify(json(one))).not.toMatch(/password|hash/i);
  });

  it('my data carries no password or hash', async () => {
    const res = await t.request({ method: 'GET', url: '/api/mydata', token: rootToken });
    expectStatus(res, 200);
    expect(Object.keys(json(res).data).sort()).toEqual([
      'email',
      'email_notifications',
      'first_name',
      'id',
      'last_name',
      'phone',
      'role',
      'username',
      'version',
    ]);
  });
});
