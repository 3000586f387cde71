// The History tab reads names, never bare ids: each change of a reference carries the labels
// of the records on both sides (deleted ones flagged), lists of references too; the system
// author has no English name but a flag the client translates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHistory } from '../../../server/engine/history';
import { expectError, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { withTenant } from '../../../server/db/doors';

type Row = Record<string, any>;

describe.each(DATABASE_KINDS)('history names on %s', (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['createUser']>>;

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request({ method, url, body, token: admin.token });
  const make = async (resource: string, body: Row) => {
    const res = await call('POST', `/api/${resource}`, body);
    expect(res.statusCode, `${resource}: ${show(res)}`).toBe(201);
    return json(res).data as Row;
  };
  const change = async (resource: string, row: Row, body: Row) => {
    const res = await call('PATCH', `/api/${resource}/${row.id}`, { ...body, version: row.version });
    expect(res.statusCode, show(res)).toBe(200);
    return json(res).data as Row;
  };
  const history = async (resource: string, id: number) => {
    const res = await call('GET', `/api/history?entity=${resource}&entity_id=${id}`);
    expect(res.statusCode, show(res)).toBe(200);
    return json(res).data as Row[];
  };
  const teacher = (first_name: string, last_name: string) =>
    make('teachers', {
      username: `t${Math.random().toString(36).slice(2, 10)}`,
      password: 'teacher-pass-1',
      confirm_password: 'teacher-pass-1',
      first_name,
      last_name,
    });

  beforeAll(async () => {
    t = await startApp(kind);
    const rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    admin = await t.createUser(rootToken, { role: 'ADMIN', first_name: 'Ελένη', last_name: 'Γραμματέως' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a changed reference shows both records by name; a deleted one is flagged', async () => {
    const maria = await teacher('Μαρία', 'Παπαδοπούλου');
    const kostas = await teacher('Κώστας', 'Ιωάννου');
    const note = await make('notes', { title: 'Πρόοδος', teacher_id: maria.id });
    await change('notes', note, { teacher_id: kostas.id });
    const gone = await call('DELETE', `/api/teachers/${kostas.id}`);
    expect(gone.statusCode, show(gone)).toBe(204);

    const [update, create] = await history('notes', note.id);
    expect(update.action).toBe('update');
    expect(update.changes.teacher_id).toEqual({
      old: maria.id,
      new: kostas.id,
      labels: { old: { id: maria.id, name: 'Μαρία Παπαδοπούλου' }, new: { id: kostas.id, name: null, deleted: true } },
    });
    expect(create.changes.teacher_id.labels).toEqual({ old: null, new: { id: maria.id, name: 'Μαρία Παπαδοπούλου' } });
    // Plain fields are as they were: no labels where there is nothing to name.
    expect(create.changes.title).toEqual({ old: null, new: 'Πρόοδος' });
  });

  it('a list of references shows the names on each side, current names and removed records included', async () => {
    const algebra = await make('subjects', { name: 'Άλγεβρα' });
    const physics = await make('subjects', { name: 'Φυσική' });
    const chemistry = await make('subjects', { name: 'Χημεία' });
    const cat = await make('class-categories', { name: 'Γυμνάσιο' });
    const lyceum = await make('class-categories', { name: 'Λύκειο' });
    const cls = await make('classes', { name: 'Α΄ Λυκείου', category_id: cat.id, subject_ids: [algebra.id, physics.id] });
    await change('classes', cls, { category_id: lyceum.id, subject_ids: [physics.id, chemistry.id] });
    await change('subjects', physics, { name: 'Φυσική Γενικής' });
    expect((await call('DELETE', `/api/subjects/${algebra.id}`)).statusCode).toBe(204);

    const entries = await history('classes', cls.id);
    const update = entries.find((e) => e.action === 'update' && e.changes.category_id)!;
    expect(update.changes.category_id.labels).toEqual({ old: { id: cat.id, name: 'Γυμνάσιο' }, new: { id: lyceum.id, name: 'Λύκειο' } });
    expect(update.changes.subject_ids.labels).toEqual({
      old: [
        { id: algebra.id, name: null, deleted: true },
        { id: physics.id, name: 'Φυσική Γενικής' },
      ],
      new: [
        { id: physics.id, name: 'Φυσική Γενικής' },
        { id: chemistry.id, name: 'Χημεία' },
      ],
    });
    const create = entries.find((e) => e.action === 'create')!;
    expect(create.changes.subject_ids.labels.old).toBeNull();
    expect(create.changes.subject_ids.labels.new.map((l: Row) => l.id)).toEqual([algebra.id, physics.id]);
  });

  it('names the author: a person by name, the system by a flag with no English text', async () => {
    const room = await make('rooms', { name: 'Αίθουσα 1' });
    await withTenant(t.database, 1, (tx) =>
      recordHistory(tx, 1, null, { entity: 'rooms', entityId: room.id, action: 'update', before: { capacity: null }, after: { capacity: 12 } }),
    );
    const [bySystem, byAdmin] = await history('rooms', room.id);
    expect(bySystem).toMatchObject({ action: 'update', user: null, user_id: null, user_name: null, system: true });
    expect(Object.values(bySystem)).not.toContain('system');
    expect(byAdmin).toMatchObject({ action: 'create', user_id: admin.id, user_name: 'Ελένη Γραμματέως', system: false });
    expect(byAdmin.user).toEqual({ id: admin.id, name: 'Ελένη Γραμματέως', root: false });
  });

  it('pages like every list: `_start` and `_end` pick the changes; a page ending before it starts or of more than 200 is 400', async () => {
    const room = await make('rooms', { name: 'Αίθουσα σελίδων' });
    let row = room;
    for (const capacity of [5, 6, 7]) row = await change('rooms', row, { capacity });
    const all = await history('rooms', room.id);
    expect(all.map((e) => e.action)).toEqual(['update', 'update', 'update', 'create']);
    const res = await call('GET', `/api/history?entity=rooms&entity_id=${room.id}&_start=1&_end=3`);
    expect(res.statusCode, show(res)).toBe(200);
    expect(json(res).data.map((e: Row) => e.id)).toEqual(all.slice(1, 3).map((e) => e.id));
    expect(json(res).total).toBe(4);
    expectError(await call('GET', `/api/history?entity=rooms&entity_id=${room.id}&_start=3&_end=1`), 400, 'validation', { _end: 'too-small' });
    expectError(await call('GET', `/api/history?entity=rooms&entity_id=${room.id}&_start=0&_end=201`), 400, 'validation', { _end: 'too-large' });
    // Without `_end`, a page of 50 from wherever it starts.
    const later = await call('GET', `/api/history?entity=rooms&entity_id=${room.id}&_start=60`);
    expect(later.statusCode, show(later)).toBe(200);
    expect(json(later).data).toEqual([]);
  });
});
