/**
 * A notification's title and body in one language, from the client's own locale files, so a
 * text is written once for the screen and the e-mail. Plural forms follow i18next's `_one` /
 * `_other` suffixes, chosen by Intl.PluralRules when the params carry a `count`.
 */
import { DEFAULT_LANGUAGE, interpolate, LANGUAGES, type Language, type NotificationParams } from '../../../domain/index';
import el from '../../../src/locales/el/notifications.json' with { type: 'json' };
import en from '../../../src/locales/en/notifications.json' with { type: 'json' };

type Texts = Record<string, Record<string, string>>;
const KINDS: Record<Language, Texts> = {
  el: el.notifications.kinds,
  en: en.notifications.kinds,
};
const FOOTERS: Record<Language, string> = { el: el.notifications.emailFooter, en: en.notifications.emailFooter };

export const asLanguage = (value: string | null | undefined): Language =>
  (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : DEFAULT_LANGUAGE;

function pick(texts: Record<string, string>, key: string, language: Language, params: NotificationParams): string {
  if (texts[key] !== undefined) return texts[key]!;
  const count = typeof params.count === 'number' ? params.count : 0;
  return texts[`${key}_${new Intl.PluralRules(language).select(count)}`] ?? texts[`${key}_other`] ?? '';
}

export function renderNotification(kind: string, params: NotificationParams, language: Language): { title: string; body: string } {
  const texts = KINDS[language][kind] ?? KINDS[DEFAULT_LANGUAGE][kind];
  if (!texts) return { title: kind, body: '' };
  return { title: interpolate(pick(texts, 'title', language, params), params), body: interpolate(pick(texts, 'body', language, params), params) };
}

export const emailFooter = (language: Language, url: string) => interpolate(FOOTERS[language], { url });

/** The reader's language from Accept-Language (el or en), else the centre's. */
export function readerLanguage(acceptLanguage: string | undefined, tenantLanguage: string): Language {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase().slice(0, 2);
    if ((LANGUAGES as readonly string[]).includes(tag)) return tag as Language;
  }
  return asLanguage(tenantLanguage);
}
