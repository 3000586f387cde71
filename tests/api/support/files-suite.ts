// The files and folders API as a client sees it, run on each engine and on each store (a
// folder under DATA_DIR, or an S3-compatible server started by the test): uploads, downloads
// with Greek names, the size limit, sniffed types, path tricks, folders with contents, who
// may call what, and other centres.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../server/config';
import { purgeDeletedFiles } from '../../../server/jobs/cleanup';
import { openFileStore } from '../../../server/modules/files/storage';
import { expectError, expectStatus, json, show } from './api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from './harness';

const BOUNDARY = '----frontis-test-boundary';
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2215bc10000000049454e44ae426082',
  'hex',
);

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
export function multipart(filename: string, bytes: Buffer, type = 'application/octet-stream') {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`, 'utf8');
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

export function filesSuite(label: string, storeConfig: (kind: string) => Partial<Config>) {
  describe.each(DATABASE_KINDS)(`files and folders (${label}) on %s`, (kind) => {
    let t: TestApp;
    let admin: string;
    let tenantId: number;
    const tokens: Record<string, string | undefined> = {};

    const upload = (filename: string, bytes: Buffer, opts: { folder?: number; token?: string; tenant?: string; type?: string } = {}) => {
      const body = multipart(filename, bytes, opts.type);
      return t.app.inject({
        method: 'POST',
        url: `/api/files${opts.folder ? `?folder_id=${opts.folder}` : ''}`,
        headers: {
          host: `${opts.tenant ?? 'demo'}.localhost`,
          'x-tenant-id': opts.tenant ?? 'demo',
          'x-client-type': 'api',
          ...(opts.token === '' ? {} : { authorization: `Bearer ${opts.token ?? admin}` }),
          ...body.headers,
        },
        payload: body.payload,
      });
    };
    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = admin, tenant = 'demo') =>
      t.request({ method, url, body, token: token || undefined, tenant });
    const folder = async (name: string, parent_id: number | null = null) => {
      const res = await call('POST', '/api/folders', { name, parent_id });
      expectStatus(res, 201);
      return json(res).data as { id: number; version: number };
    };
    const storedKeys = () => openFileStore(t.config).keys(tenantId);

    beforeAll(async () => {
      t = await startApp(kind, { maxUploadMb: 1, ...storeConfig(kind) });
      admin = (await t.signIn(t.root.username, t.root.password)).token;
      const tenants = json(await call('GET', '/api/tenants?slug=demo')).data as { id: number }[];
      tenantId = tenants[0]!.id;
      tokens.ROOT = admin;
      tokens.ADMIN = (await t.createUser(admin, { role: 'ADMIN', first_name: 'Ελένη', last_name: 'Αθανασίου' })).token;
      tokens.SECRETARY = (await t.createUser(admin, { role: 'SECRETARY' })).token;
      const teacher = await call('POST', '/api/teachers', {
        username: `files-teacher-${label}`,
        password: 'teacher-password-1',
        confirm_password: 'teacher-password-1',
        first_name: 'Σοφία',
        last_name: 'Δημητρίου',
      });
      expectStatus(teacher, 201);
      tokens.TEACHER = (await t.signIn(`files-teacher-${label}`, 'teacher-password-1')).token;
      tokens.anonymous = '';
    }, 60_000);
    afterAll(async () => t?.close());

    it('an admin uploads into a new folder, sees the file listed, and downloads it with its Greek name', async () => {
      const f = await folder('Προγράμματα');
      const bytes = Buffer.from('%PDF-1.4\n% Πρόγραμμα μαθημάτων\n%%EOF\n', 'utf8');
      const res = await upload('Πρόγραμμα Νοεμβρίου.pdf', bytes, { folder: f.id, token: tokens.ADMIN });
      expectStatus(res, 201);
      const file = json(res).data;
      expect(file).toMatchObject({
        name: 'Πρόγραμμα Νοεμβρίου.pdf',
        folder_id: f.id,
        folder: { id: f.id, name: 'Προγράμματα' },
        size: bytes.length,
        mime_type: 'application/pdf',
        sha256: createHash('sha256').update(bytes).digest('hex'),
        uploaded_by: 'Ελένη Αθανασίου',
      });
      expect(file.uploaded_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

      const list = await call('GET', `/api/files?folder_id=${f.id}`);
      expectStatus(list, 200);
      expect(json(list).data.map((r: { name: string }) => r.name)).toEqual(['Πρόγραμμα Νοεμβρίου.pdf']);
      const found = await call('GET', `/api/files?q=${encodeURIComponent('ΠΡΟΓΡΑΜΜΑ νοεμβριου')}`);
      expect(json(found).data.map((r: { id: number }) => r.id)).toContain(file.id);

      const down = await call('GET', `/api/files/${file.id}/content`);
      expectStatus(down, 200);
      expect(down.rawPayload.equals(bytes)).toBe(true);
      expect(down.headers['content-type']).toBe('application/pdf');
      expect(down.headers['x-content-type-options']).toBe('nosniff');
      const disposition = String(down.headers['content-disposition']);
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; /);
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('Πρόγραμμα Νοεμβρίου.pdf')}`);

      const preview = await call('GET', `/api/files/${file.id}/content?inline=1`);
      expect(String(preview.headers['content-disposition'])).toMatch(/^inline; /);
      expect(String(preview.headers['content-security-policy'])).toMatch(/^sandbox/);

      const history = await call('GET', `/api/history?entity=files&entity_id=${file.id}`);
      expect(json(history).data.map((h: { action: string }) => h.action)).toEqual(['create']);
    });

    it('a file over MAX_UPLOAD_MB is refused with 413 too-large and nothing is stored', async () => {
      const before = await storedKeys();
      const f = await folder('Μεγάλα');
      // Just over the limit: the announced length passes, the counted bytes do not.
      const justOver = await upload('μεγάλο.bin', Buffer.alloc(1024 * 1024 + 10, 7), { folder: f.id });
      expectError(justOver, 413, 'too-large');
      // Far over: refused from the Content-Length alone.
      const farOver = await upload('τεράστιο.bin', Buffer.alloc(3 * 1024 * 1024, 7), { folder: f.id });
      expectError(farOver, 413, 'too-large');
      expect(json(await call('GET', `/api/files?folder_id=${f.id}`)).total).toBe(0);
      expect((await storedKeys()).sort()).toEqual(before.sort());
      // Exactly the limit is fine.
      expectStatus(await upload('όριο.bin', Buffer.alloc(1024 * 1024, 7), { folder: f.id }), 201);
    });

    it('bytes that say HTML are never served as HTML, whatever the name says', async () => {
      const html = Buffer.from('<!DOCTYPE html><html><script>alert(document.cookie)</script></html>');
      const res = await upload('φωτογραφία.png', html, { type: 'image/png' });
      expectStatus(res, 201);
      const file = json(res).data;
      expect(file.mime_type).toBe('application/octet-stream');
      for (const url of [`/api/files/${file.id}/content`, `/api/files/${file.id}/content?inline=1`]) {
        const down = await call('GET', url);
        expectStatus(down, 200);
        expect(String(down.headers['content-type'])).not.toMatch(/html|image/);
        expect(String(down.headers['content-disposition'])).toMatch(/^attachment; /);
        expect(down.headers['x-content-type-options']).toBe('nosniff');
      }
      const png = json(await upload('εικόνα.txt', PNG)).data;
      expect(png.mime_type).toBe('image/png');
      const text = json(await upload('σημείωση.png', Buffer.from('Καλημέρα σας\n'))).data;
      expect(text.mime_type).toBe('text/plain');
    });

    it('names with paths, NUL or slashes never reach the storage, which keeps generated keys', async () => {
      const tricks: Array<[string, string]> = [
        ['../../etc/passwd', 'passwd'],
        ['..\\..\\windows\\win.ini', 'win.ini'],
        ['a/b/c.txt', 'c.txt'],
        ['κακό\u0000όνομα.txt', 'κακόόνομα.txt'],
        ['..', 'file'],
      ];
      for (const [raw, shown] of tricks) {
        const res = await upload(raw, Buffer.from('δοκιμή'));
        expect(res.statusCode, show(res)).toBe(201);
        expect(json(res).data.name).toBe(shown);
      }
      for (const key of await storedKeys()) expect(key).toMatch(new RegExp(`^${tenantId}/[0-9a-f-]{36}$`));
      const id = json(await upload('ok.txt', Buffer.from('x'))).data.id;
      const row = json(await call('GET', `/api/files/${id}`)).data;
      expectError(await call('PATCH', `/api/files/${id}`, { name: '../x.txt', version: row.version }), 400, 'validation', { name: 'invalid-format' });
      expectError(await call('PATCH', `/api/files/${id}`, { name: 'a\u0000b', version: row.version }), 400, 'validation', { name: 'invalid-format' });
      const renamed = await call('PATCH', `/api/files/${id}`, { name: 'Ανακοίνωση.txt', version: row.version });
      expectStatus(renamed, 200);
      expect(String((await call('GET', `/api/files/${id}/content`)).headers['content-disposition'])).toContain(encodeURIComponent('Ανακοίνωση.txt'));
      expectError(await call('POST', '/api/files', { name: 'x.txt' }), 400, 'validation');
    });

    it('a folder moves anywhere but into itself or its own folders, and is deleted with its contents only when asked', async () => {
      const top = await folder('Έτος 2026');
      const child = await folder('Τμήματα', top.id);
      const grandchild = await folder('Α΄ Λυκείου', child.id);
      const file = json(await upload('λίστα.txt', Buffer.from('ονόματα'), { folder: grandchild.id })).data;
      expectError(await call('PATCH', `/api/folders/${top.id}`, { parent_id: grandchild.id, version: top.version }), 400, 'validation', {
        parent_id: 'invalid',
      });
      expectError(await call('PATCH', `/api/folders/${top.id}`, { parent_id: top.id, version: top.version }), 400, 'validation', { parent_id: 'invalid' });
      const other = await folder('Αρχείο');
      const moved = await call('PATCH', `/api/folders/${grandchild.id}`, { parent_id: other.id, version: 1 });
      expectStatus(moved, 200);
      const back = await call('PATCH', `/api/folders/${grandchild.id}`, { parent_id: child.id, version: json(moved).data.version });
      expectStatus(back, 200);

      const refused = expectError(await call('DELETE', `/api/folders/${top.id}`), 409, 'in-use');
      expect(refused.error.details.uses).toEqual({ folders: 1 });
      expectError(await call('DELETE', `/api/folders/${grandchild.id}`), 409, 'in-use');
      expectStatus(await call('GET', `/api/files/${file.id}`), 200);

      expectStatus(await call('DELETE', `/api/folders/${top.id}?recursive=true`), 204);
      for (const url of [
        `/api/folders/${top.id}`,
        `/api/folders/${child.id}`,
        `/api/folders/${grandchild.id}`,
        `/api/files/${file.id}`,
        `/api/files/${file.id}/content`,
      ]) {
        expectError(await call('GET', url), 404, 'not-found');
      }
      const history = json(await call('GET', `/api/history?entity=files&entity_id=${file.id}`)).data;
      expect(history.map((h: { action: string }) => h.action)).toContain('delete');
      expectStatus(await call('DELETE', `/api/folders/${other.id}`), 204);
    });

    it("a deleted file's bytes stay for restored backups until the clean-up's delay has passed", async () => {
      // Earlier tests deleted files too: clear what they left due, so only this file counts.
      await purgeDeletedFiles(t.database, tenantId, openFileStore(t.config), 0);
      const file = json(await upload('παλιό.txt', Buffer.from('παλιό'))).data;
      const before = await storedKeys();
      expectStatus(await call('DELETE', `/api/files/${file.id}`), 204);
      expect(await storedKeys()).toEqual(before);
      // Deleted just now: younger than the oldest kept backup, so kept.
      expect(await purgeDeletedFiles(t.database, tenantId, openFileStore(t.config))).toBe(0);
      expect((await storedKeys()).length).toBe(before.length);
      // With no delay the clean-up removes exactly that file's bytes.
      expect(await purgeDeletedFiles(t.database, tenantId, openFileStore(t.config), 0)).toBe(1);
      expect((await storedKeys()).length).toBe(before.length - 1);
    });

    it('only ROOT and ADMIN reach files and folders; nobody signed out does', async () => {
      const f = await folder('Ιδιωτικά');
      const file = json(await upload('μισθοί.txt', Buffer.from('μυστικό'), { folder: f.id })).data;
      const expected: Record<string, number> = { ROOT: 200, ADMIN: 200, SECRETARY: 403, TEACHER: 403, anonymous: 401 };
      for (const [who, status] of Object.entries(expected)) {
        const token = tokens[who] ?? '';
        for (const url of ['/api/folders', `/api/folders/${f.id}`, '/api/files', `/api/files/${file.id}`, `/api/files/${file.id}/content`]) {
          const res = await call('GET', url, undefined, token);
          expect(res.statusCode, `${who} GET ${url}: ${show(res)}`).toBe(status);
        }
        const up = await upload('x.txt', Buffer.from('x'), { token, folder: f.id });
        expect(up.statusCode, `${who} upload: ${show(up)}`).toBe(status === 200 ? 201 : status);
        if (status !== 200) {
          expect((await call('POST', '/api/folders', { name: 'x' }, token)).statusCode).toBe(status);
          expect((await call('DELETE', `/api/files/${file.id}`, undefined, token)).statusCode).toBe(status);
          expect((await call('DELETE', `/api/folders/${f.id}?recursive=true`, undefined, token)).statusCode).toBe(status);
        }
      }
      expectStatus(await call('DELETE', `/api/files/${file.id}`), 204);
    });

    it("another centre's admin neither sees nor touches this centre's files", async () => {
      const f = await folder('Του demo');
      const file = json(await upload('demo.txt', Buffer.from('demo'), { folder: f.id })).data;
      const slug = `files${kind.slice(0, 2)}${label.slice(0, 2).toLowerCase()}${Date.now().toString(36)}`;
      const { admin: other } = await t.createTenant(slug);
      const as = (method: 'GET' | 'PATCH' | 'DELETE', url: string, body?: unknown) => call(method, url, body, other.token, slug);
      expect(json(await as('GET', '/api/files')).total).toBe(0);
      expect(json(await as('GET', '/api/folders')).total).toBe(0);
      for (const url of [`/api/files/${file.id}`, `/api/files/${file.id}/content`, `/api/folders/${f.id}`]) expectError(await as('GET', url), 404, 'not-found');
      expectError(await as('PATCH', `/api/files/${file.id}`, { name: 'κλεμμένο', version: 1 }), 404, 'not-found');
      expectError(await as('DELETE', `/api/files/${file.id}`), 404, 'not-found');
      expectError(await as('DELETE', `/api/folders/${f.id}?recursive=true`), 404, 'not-found');
      expectError(await upload('ξένο.txt', Buffer.from('x'), { token: other.token, tenant: slug, folder: f.id }), 400, 'validation', { folder_id: 'invalid' });
      // The demo token on the other centre's host is refused outright.
      expect((await call('GET', '/api/files', undefined, admin, slug)).statusCode).toBe(403);
      expectStatus(await call('GET', `/api/files/${file.id}/content`), 200);
    });
  });
}
