// E-mail copies of notifications against a real SMTP server started here (smtp-server): only
// users who chose them in My data and gave an address get one, once, in the centre's language.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, show } from './api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from './harness';
import { dateCursor, lessonBody, makeLesson, makeWorld, type World } from './lessons-helpers';

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/** Headers and text of a plain message as nodemailer writes it (encoded words, quoted-printable or base64). */
function parse(raw: string, to: string[]): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const words = (value: string) =>
    value.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return { to, subject: words(header('Subject')).trim(), text };
}

describe.each(DATABASE_KINDS)('notification e-mails on %s', (kind) => {
  const mails: Mail[] = [];
  let smtp: SMTPServer;
  let t: TestApp;
  let w: World;
  const nextDate = dateCursor('2027-07-05');

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push(
            parse(
              Buffer.concat(chunks).toString('latin1'),
              (session.envelope.rcptTo || []).map((r) => r.address),
            ),
          );
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await startApp(kind, { smtpUrl: `smtp://127.0.0.1:${port}`, publicUrl: 'https://{tenant}.frontis.test' });
    w = await makeWorld(t, { tenant: `mail${kind === 'pglite' ? 'a' : 'b'}`, teachers: 2 });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  it('only a user who chose e-mail copies in My data gets one, in Greek, with the link', async () => {
    const [wants, doesNot] = w.teachers as [World['teachers'][0], World['teachers'][0]];
    // Both give an address; only the first asks for copies.
    for (const [teacher, choice] of [
      [wants, true],
      [doesNot, false],
    ] as const) {
      const mine = json(await teacher.call('GET', '/api/mydata')).data;
      expect(mine.email_notifications).toBe(false);
      const res = await teacher.call('PATCH', '/api/mydata', {
        version: mine.version,
        email: `${teacher.username}@example.gr`,
        email_notifications: choice,
      });
      expect(res.statusCode, show(res)).toBe(200);
      expect(json(res).data).toMatchObject({ email: `${teacher.username}@example.gr`, email_notifications: choice });
    }

    await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: doesNot.row.id }));
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: wants.row.id }));
    await expect.poll(() => mails.length, { timeout: 30_000 }).toBe(1);
    const [mail] = mails;
    expect(mail!.to).toEqual([`${wants.username}@example.gr`]);
    expect(mail!.subject).toBe('Νέο μάθημα');
    expect(mail!.text).toContain(`${w.subjects[0]!.name}: `);
    expect(mail!.text).toContain(`https://${w.tenant}.frontis.test/?mode=view&lesson=${lesson.id}`);

    // The choice is in the history of the user's own row.
    const history = json(await w.admin('GET', `/api/history?entity=users&entity_id=${json(await wants.call('GET', '/api/mydata')).data.id}`)).data;
    expect(JSON.stringify(history)).toContain('email_notifications');
  });
});
