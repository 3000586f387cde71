// A real SMTP server (smtp-server) on a free local port that keeps every message it receives,
// parsed as a reader sees it: recipients, subject, text and HTML parts (encoded words,
// quoted-printable or base64 undone; a multipart/alternative message's parts read apart). An address in `refuse` is refused at RCPT TO (a failing delivery).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  /** The HTML part, when the message has one. */
  html?: string;
}

export function parse(raw: string, to: string[]): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const hex = (text: string) => text.replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  const words = (value: string) =>
    value.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : Buffer.from(hex(text.replace(/_/g, ' ')), 'latin1').toString('utf8'),
    );
  const boundary = /boundary="?([^";]+)"?/i.exec(header('Content-Type'))?.[1];
  if (/^multipart\//i.test(header('Content-Type')) && boundary) {
    const parts = body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .map((part) => ({
        type: /^Content-Type:\s*([^;\r\n]+)/im.exec(part)?.[1]?.toLowerCase() ?? '',
        mail: parse(part.replace(/^\r\n/, '').replace(/\r\n$/, ''), to),
      }));
    const text = parts.find((p) => p.type === 'text/plain')?.mail.text ?? '';
    const html = parts.find((p) => p.type === 'text/html')?.mail.text;
    return { to, subject: words(header('Subject')).trim(), text, ...(html === undefined ? {} : { html }) };
  }
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(hex(body.replace(/=\r\n/g, '')), 'latin1').toString('utf8')
        : Buffer.from(body, 'latin1').toString('utf8');
  return { to, subject: words(header('Subject')).trim(), text: text.replace(/\r\n/g, '\n') };
}

export interface Mailbox {
  url: string;
  mails: Mail[];
  refuse: Set<string>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: Mail[] = [];
  const refuse = new Set<string>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address)) return callback(new Error('Mailbox unavailable'));
      callback();
    },
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
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuse,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
