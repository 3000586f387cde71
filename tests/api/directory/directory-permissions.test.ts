// Who may call what on the directory:
// ROOT, ADMIN, SECRETARY, a TEACHER (created through POST /api/teachers) and an anonymous
// caller against list, read, create, update, delete and history of every directory resource.
// The expectation comes from the domain's can() and RESOURCE_AREA, so the matrix follows it.
// TEACHER's notes, classes and students are narrowed to their own (directory-notes.test.ts and
// teacher-references.test.ts have the details).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { can, isOwnOnly, RESOURCE_AREA, type Action } from '../../../domain/permissions';
import type { Role } from '../../../domain/enums';
import { RESOURCES } from '../../../domain/resources/index';
import { buildServerRegistry } from '../../../server/registry';
import { textFieldOf, validBody } from '../support/declared-bodies';

type Who = Role | 'anonymous';
const WHO: Who[] = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER', 'anonymous'];
type Row = Record<string, any>;

/**
 * The directory: every resource served by the generic CRUD routes, from the server's own list,
 * so a new one is checked the day it is declared. Folders and files have their own tests
 * (files.test.ts): a file is made by its upload.
 */
const RESOURCE_NAMES = buildServerRegistry()
  .served.filter((spec) => spec.def.area !== 'files')
  .map((spec) => spec.def.name);
const declared = (name: string) => RESOURCES[name]!;

/** The field each resource's update changes: the one that names its rows. */
const textField = (name: string) => textFieldOf(declared(name));

let seq = 0;
const tagOf = (who: string) =>
  `${who.toLowerCase().replace(/[^a-z]/g, '')}${'abcdefghijklmnopqrstuvwxyz'[seq % 26]}${'abcdefghijklmnopqrstuvwxyz'[Math.floor(seq++ / 26) % 26]}`;

/** A valid body derived from the declaration, its naming field saying who made it. */
function bodyFor(name: string, who: string): Row {
  const tag = tagOf(who);
  return validBody(declared(name), { tag, text: `made by ${who} ${tag}` });
}

const OK: Record<Action, number> = { list: 200, read: 200, create: 201, update: 200, delete: 204 };

describe.each(DATABASE_KINDS)('directory permissions on %s', (kind) => {
  let t: TestApp;
  const token: Partial<Record<Who, string>> = {};
  const victim: Record<string, Row> = {};
  const deleteTarget: Record<string, Partial<Record<Who, number>>> = {};

  const send = (who: Who, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, body, token: token[who], clientType: 'api' });
  const adminCreate = async (name: string, who = 'ADMIN') => {
    const res = await send('ADMIN', 'POST', `/api/${name}`, bodyFor(name, who));
    expect(res.statusCode, `${name}: ${show(res)}`).toBe(201);
    return json(res).data as Row;
  };

  beforeAll(async () => {
    t = await startApp(kind);
    token.ROOT = (await t.signIn(t.root.username, t.root.password)).token;
    token.ADMIN = (await t.createUser(token.ROOT, { role: 'ADMIN' })).token;
    token.SECRETARY = (await t.createUser(token.ROOT, { role: 'SECRETARY' })).token;
    const teacher = await send('ADMIN', 'POST', '/api/teachers', {
      username: 'perm-teacher',
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Σοφία',
      last_name: 'Καθηγήτρια',
    });
    expect(teacher.statusCode, show(teacher)).toBe(201);
    const session = await t.signIn('perm-teacher', 'teacher-password-1');
    expect(session.user.role).toBe('TEACHER');
    token.TEACHER = session.token;
    for (const name of RESOURCE_NAMES) {
      victim[name] = await adminCreate(name, 'victim');
      deleteTarget[name] = {};
      for (const who of ['ROOT', 'ADMIN', 'SECRETARY'] as const) deleteTarget[name][who] = (await adminCreate(name, `del-${who}`)).id;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The answer a caller must get: success, 401 for no session, 403 without the right, 403/404 for a TEACHER's foreign note. */
  function expected(who: Who, name: string, action: Action): number | 'refused' {
    if (who === 'anonymous') return 401;
    const area = RESOURCE_AREA[name];
    if (!can(who, area, action)) return 403;
    if (isOwnOnly(who, area) && ['read', 'update', 'delete'].includes(action)) return 'refused'; // the victim is not theirs
    return OK[action];
  }

  const run: Record<Action, (who: Who, name: string) => Promise<Response>> = {
    list: (who, name) => send(who, 'GET', `/api/${name}`),
    read: (who, name) => send(who, 'GET', `/api/${name}/${victim[name].id}`),
    create: (who, name) => send(who, 'POST', `/api/${name}`, bodyFor(name, who)),
    update: async (who, name) => {
      const { version } = json(await send('ADMIN', 'GET', `/api/${name}/${victim[name].id}`)).data;
      return send(who, 'PATCH', `/api/${name}/${victim[name].id}`, { [textField(name)]: `updated by ${who}`, version });
    },
    delete: (who, name) => send(who, 'DELETE', `/api/${name}/${deleteTarget[name][who] ?? victim[name].id}`),
  };

  const table = RESOURCE_NAMES.flatMap((name) =>
    (['list', 'read', 'create', 'update', 'delete'] as Action[]).flatMap((action) => WHO.map((who) => ({ route: `${action} ${name}`, name, action, who }))),
  );

  it.each(table)('$route as $who', async ({ name, action, who }) => {
    const res = await run[action](who, name);
    const status = expected(who, name, action);
    if (status === 401) expectError(res, 401, 'unauthorized');
    else if (status === 403) expectError(res, 403, 'forbidden');
    else if (status === 'refused') {
      expect([403, 404], show(res)).toContain(res.statusCode);
      expectError(res, res.statusCode, res.statusCode === 403 ? 'forbidden' : 'not-found');
    } else expectStatus(res, status);
  });

  // A narrowed role's history is that of its own rows (the victim is not one of them).
  const historyTable = RESOURCE_NAMES.flatMap((name) =>
    WHO.filter((who) => who === 'anonymous' || !isOwnOnly(who, RESOURCE_AREA[name]!)).map((who) => ({ name, who })),
  );
  it.each(historyTable)('GET /api/history of $name as $who', async ({ name, who }) => {
    const res = await send(who, 'GET', `/api/history?entity=${name}&entity_id=${victim[name].id}`);
    const status = expected(who, name, 'read');
    if (status === 401) expectError(res, 401, 'unauthorized');
    else if (status === 403) expectError(res, 403, 'forbidden');
    else {
      expectStatus(res, 200);
      expect(json(res).data.map((h: Row) => h.action)).toContain('create');
    }
  });

  it.each(WHO)('POST /api/students/import (dry run) as %s', async (who) => {
    const res = await send(who, 'POST', '/api/students/import', {
      rows: [{ first_name: 'Δοκιμή', last_name: 'Εισαγωγής' }],
      skip_invalid: false,
      dry_run: true,
    });
    const status = expected(who, 'students', 'create');
    if (status === 401) expectError(res, 401, 'unauthorized');
    else if (status === 403) expectError(res, 403, 'forbidden');
    else {
      expectStatus(res, 200);
      expect(json(res)).toMatchObject({ created: 1, skipped: 0, errors: [] });
    }
  });

  it('refused callers changed nothing; allowed ones did', async () => {
    const problems: string[] = [];
    for (const name of RESOURCE_NAMES) {
      const field = textField(name);
      const area = RESOURCE_AREA[name];
      const writers = WHO.filter((w) => w !== 'anonymous' && can(w as Role, area, 'update') && !isOwnOnly(w as Role, area));
      const row = json(await send('ADMIN', 'GET', `/api/${name}/${victim[name].id}`)).data;
      if (!row || row.deleted) problems.push(`${name}: the victim was deleted: ${JSON.stringify(row)}`);
      else if (row[field] !== `updated by ${writers[writers.length - 1]}`) problems.push(`${name}: victim ${field} is ${row[field]}`);
      for (const who of WHO) {
        const made = json(await send('ADMIN', 'GET', `/api/${name}?${field}_like=${encodeURIComponent(`made by ${who} `)}`)).total;
        const allowed = who !== 'anonymous' && can(who, area, 'create');
        if (made !== (allowed ? 1 : 0)) problems.push(`${name}: ${made} rows made by ${who}`);
      }
      for (const who of ['ROOT', 'ADMIN', 'SECRETARY'] as const) {
        const gone = await send('ADMIN', 'GET', `/api/${name}/${deleteTarget[name][who]}`);
        const allowed = can(who, area, 'delete');
        const deleted = gone.statusCode === 404 || (name === 'teachers' && json(gone).data?.deleted === true);
        if (deleted !== allowed) problems.push(`${name}: delete target of ${who} -> ${show(gone)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
