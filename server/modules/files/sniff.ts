/**
 * What a file is, judged from its first bytes and never from its name or the type a browser
 * claimed: a small table of signatures, plain text when the bytes read as UTF-8 text without
 * markup, and application/octet-stream for everything else. HTML or SVG bytes are never
 * labelled as something a browser would render.
 */
export const SNIFF_BYTES = 512;

const SIGNATURES: ReadonlyArray<[string, number[], number?]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/zip', [0x50, 0x4b, 0x05, 0x06]],
];

const startsWith = (head: Buffer, bytes: number[], at = 0) => head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);

/** Office documents are zip archives; the name of their first entry tells which. */
function officeType(head: Buffer): string {
  const text = head.toString('latin1');
  if (text.includes('word/')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (text.includes('xl/')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (text.includes('ppt/')) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  return 'application/zip';
}

/** Text a browser might treat as a page or a script if it ever guessed. */
const MARKUP = /<\s*(!doctype|html|head|body|script|svg|iframe|object|embed|\?xml)/i;

function isPlainText(head: Buffer): boolean {
  if (head.length === 0) return false;
  // A multi-byte character may be cut at the end of the sample: judge the bytes before it.
  let end = head.length;
  for (let i = Math.max(0, end - 3); i < end; i++) if ((head[i]! & 0xc0) === 0xc0) end = i;
  const sample = head.subarray(0, end);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(sample);
  if (text.includes('\ufffd')) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || c === 0x7f) return false;
  }
  return !MARKUP.test(text);
}

export function sniffType(head: Buffer): string {
  for (const [type, bytes] of SIGNATURES) {
    if (startsWith(head, bytes)) return type === 'application/zip' ? officeType(head) : type;
  }
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return isPlainText(head) ? 'text/plain' : 'application/octet-stream';
}

/**
 * A file name as it is kept and shown: the last part of any path (a browser may send
 * `C:\\Users\\…\\x.pdf` or `../../etc/passwd`), without control characters, at most 200
 * characters; `file` when nothing is left.
 */
export function cleanFileName(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  let name = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (name === '.' || name === '..') name = '';
  name = name.replace(/^\.+/, (dots) => (dots.length === name.length ? '' : dots));
  if ([...name].length > 200) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = [...name].slice(0, 200 - [...ext].length).join('') + ext;
  }
  return name || 'file';
}

/**
 * The Content-Disposition of a download: the name in UTF-8 (RFC 5987, so Greek survives)
 * and an ASCII fallback for old clients, neither able to break out of the header.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const ascii =
    name
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%;]/g, '_')
      .trim() || 'file';
  const dot = name.lastIndexOf('.');
  const fallback = ascii.startsWith('.') && dot > 0 ? `file${name.slice(dot).replace(/[^\w.]/g, '')}` : ascii;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
