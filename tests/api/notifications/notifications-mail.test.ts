// E-mail copies of notifications against a real SMTP server (tests/api/support/mailbox.ts): only
// users who chose them in My data and gave an address get one, once, in the centre's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { dateCursor, lessonBody, makeLesson, makeWorld, type World } from '../support/lessons-helpers';
import { type Mailbox, startMailbox } from '../support/mailbox';

describe.each(DATABASE_KINDS)('notification e-mails on %s', (kind) => {
  let box: Mailbox;
  let mails: Mailbox['mails'];
  let t: TestApp;
  let w: World;
  const nextDate = dateCursor('2027-07-05');

  beforeAll(async () => {
    box = await startMailbox();
    mails = box.mails;
    t = await startApp(kind, { smtpUrl: box.url, publicUrl: 'https://{tenant}.frontis.test' });
    w = await makeWorld(t, { tenant: `mail${kind === 'pglite' ? 'a' : 'b'}`, teachers: 2 });
  });
  afterAll(async () => {
    await t?.close();
    await box?.close();
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
