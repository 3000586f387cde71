// Internals of the generic CRUD module behind the directory: delete rules derived
// from who references whom, link removal recorded in the owners' history, label naming, and
// the demo centre written once on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelKey } from '../../../domain/references';
import { bootstrap } from '../../../server/bootstrap';
import { DEMO_STUDENTS } from '../../../server/demo/directory';
import { buildServerRegistry } from '../../../server/registry';

const registry = buildServerRegistry();
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

describe('directory registry', () => {
  it('derives delete rules: a REFERENCE blocks, a REFERENCES link is released', () => {
    const blockers = (name: string) => (registry.blockers.get(name) ?? []).map((b) => `${b.spec.def.name}.${b.field}`).sort();
    const links = (name: string) => (registry.links.get(name) ?? []).map((b) => `${b.spec.def.name}.${b.field}`).sort();
    expect(blockers('class-categories')).toEqual(['classes.category_id']);
    // A student with a contract stays: its payments are the centre's books.
    expect(blockers('students')).toEqual(['contracts.student_id', 'notes.student_id']);
    expect(blockers('contract-categories')).toEqual(['contracts.category_id']);
    expect(blockers('contracts')).toEqual(['payments.contract_id']);
    expect(blockers('expense-categories')).toEqual(['expenses.category_id']);
    expect(blockers('classes')).toEqual(['lessons.class_id', 'notes.class_id', 'recurring-lessons.class_id']);
    expect(blockers('subjects')).toEqual(['lessons.subject_id', 'recurring-lessons.subject_id']);
    expect(blockers('rooms')).toEqual(['lessons.room_id', 'recurring-lessons.room_id']);
    expect(blockers('lessons')).toEqual(['lessons.replaces_lesson_id']);
    expect(links('lesson-tags')).toEqual(['lessons.tag_ids', 'recurring-lessons.tag_ids']);
    expect(links('subjects')).toEqual(['classes.subject_ids', 'students.subject_ids', 'teachers.subject_ids']);
    expect(links('students')).toEqual(['classes.student_ids', 'guardians.student_ids']);
    // A guardian who pays a contract stays; her links to her children are released with her.
    expect(blockers('guardians')).toEqual(['contracts.payer_guardian_id']);
    expect(links('guardians')).toEqual(['students.guardian_ids']);
    expect(links('classes')).toEqual(['students.class_ids']);
  });

  it('names labels by dropping _id, or _ids and pluralising', () => {
    expect(labelKey({ name: 'category_id', type: 'REFERENCE' })).toBe('category');
    expect(labelKey({ name: 'class_ids', type: 'REFERENCES' })).toBe('classes');
    expect(labelKey({ name: 'subject_ids', type: 'REFERENCES' })).toBe('subjects');
    expect(labelKey({ name: 'student_ids', type: 'REFERENCES' })).toBe('students');
  });
});

describe.each(DATABASE_KINDS)('directory internals on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.request({ method, url, body, token: admin });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };

  beforeAll(async () => {
    t = await startApp(kind, { demoData: true });
    admin = (await t.signIn('admin', 'demo-admin-2024')).token;
  });
  afterAll(async () => t?.close());

  it('fills the demo centre once, however often bootstrap runs', async () => {
    await bootstrap(t.database, t.config);
    const total = async (name: string) => Number((await t.request({ url: `/api/${name}?_end=1`, token: admin })).headers['x-total-count']);
    expect(await total('students')).toBe(DEMO_STUDENTS);
    expect(await total('teachers')).toBe(4);
    expect(await total('classes')).toBe(8);
    expect(await total('rooms')).toBe(4);
    // The staff's demo TEACHER users got their teacher rows; the new teachers can sign in.
    const { body } = await call('GET', '/api/teachers?username=maria');
    expect(body.data).toHaveLength(1);
    await expect(t.signIn('katerina', 'demo-teacher-2024')).resolves.toBeTruthy();
  });

  it("deleting a subject removes its links and records the change in each owner's history", async () => {
    const subject = (await call('POST', '/api/subjects', { name: 'Λατινικά' })).body.data;
    const cls = (await call('POST', '/api/classes', { name: 'Γ΄ Λυκείου Λατινικά', subject_ids: [subject.id] })).body.data;
    expect(cls.subjects).toEqual([{ id: subject.id, name: 'Λατινικά' }]);
    expect((await call('DELETE', `/api/subjects/${subject.id}`)).status).toBe(204);
    const after = (await call('GET', `/api/classes/${cls.id}`)).body.data;
    expect(after.subject_ids).toEqual([]);
    expect(after.version).toBe(cls.version + 1);
    const history = (await call('GET', `/api/history?entity=classes&entity_id=${cls.id}`)).body.data;
    expect(history[0]).toMatchObject({ action: 'update', changes: { subject_ids: { old: [subject.id], new: [] } } });
    // The form opened before the deletion is now stale.
    expect((await call('PATCH', `/api/classes/${cls.id}`, { name: 'x', version: cls.version })).status).toBe(409);
  });

  it('a custom-field filter or sort on a key the tenant has not defined is refused, never interpolated', async () => {
    expect((await call('GET', "/api/students?custom_fields.school')--=1")).status).toBe(400);
    expect((await call('GET', '/api/students?_sort=custom_fields.nope')).status).toBe(400);
    const sorted = (await call('GET', '/api/students?_sort=custom_fields.school&_end=200')).body.data as { custom_fields: { school?: string } }[];
    const schools = sorted.map((s) => s.custom_fields.school ?? '\uffff');
    expect(schools).toEqual([...schools].sort());
  });
});
