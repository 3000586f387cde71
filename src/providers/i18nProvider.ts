import i18n, { type BackendModule } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { I18nProvider } from '@refinedev/core';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../domain/enums';

export type Tree = { [key: string]: string | Tree };

/** A translation function as the screens and the field helpers call it: a key and its values, a text back. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

// Every JSON file of a language merges into its one namespace. Greek, the default and the
// fallback, comes with the page: the sign-in page needs only common.json and errors.json, the
// screens' files come with App (locales/screens.ts), so the /login bundle does not grow with
// every screen's strings. Another language is fetched, all its files at once, when it is chosen
// (stored from an earlier visit, or picked in a menu).
const files = import.meta.glob<Tree>('../locales/el/{common,errors}.json', { eager: true, import: 'default' });
const fetched: Partial<Record<Language, () => Promise<{ default: Tree[] }>>> = {
  en: () => import('../locales/en'),
};

export function merge(into: Tree, from: Tree): Tree {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    into[key] = typeof value === 'object' && typeof existing === 'object' ? merge(existing, value) : value;
  }
  return into;
}

export const translations: Record<Language, Tree> = { el: {}, en: {} };
for (const tree of Object.values(files)) merge(translations.el, tree);

/** i18next's loader for the languages that do not come with the page. */
const fetchedStrings: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = fetched[language as Language];
    if (!load) return callback(null, {});
    load().then(
      (module) => {
        for (const tree of module.default) merge(translations[language as Language], tree);
        callback(null, translations[language as Language]);
      },
      (error: Error) => callback(error, false),
    );
  },
};

const LANGUAGE_KEY = 'frontis.language';

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    if (value && (LANGUAGES as readonly string[]).includes(value)) return value as Language;
  } catch {
    // no storage: Greek
  }
  return DEFAULT_LANGUAGE;
}

/** Settled when the chosen language's strings are there (at once for Greek); main renders then. */
export const i18nReady: Promise<unknown> = i18n
  .use(fetchedStrings)
  .use(initReactI18next)
  .init({
    resources: { [DEFAULT_LANGUAGE]: { translation: translations[DEFAULT_LANGUAGE] } },
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });

/** Every language's strings, for matching what people typed in any of them (the CSV import). */
export const loadAllLanguages = (): Promise<unknown> => i18n.loadLanguages([...LANGUAGES]);

i18n.on('languageChanged', (language) => {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // not persisted
  }
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

export { i18n };

export const currentLanguage = (): Language => ((LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : DEFAULT_LANGUAGE);

/**
 * Refine's view of i18next. Refine memoizes its translations (the sidebar labels among them)
 * on this object's identity, so App makes one per language with useMemo.
 */
export const createI18nProvider = (): I18nProvider => ({
  translate: (key: string, options?: unknown, defaultMessage?: string) => {
    if (typeof options === 'string') return i18n.t(key, { defaultValue: options });
    return i18n.t(key, { ...(options as Record<string, unknown> | undefined), defaultValue: defaultMessage ?? key });
  },
  changeLocale: (language: string) => i18n.changeLanguage(language),
  getLocale: () => i18n.language,
});

/** A screen's translations: `t` (typed as the field helpers take it) and i18next (its language). */
export function useT(): { t: Translate; i18n: typeof i18n } {
  const { t, i18n: instance } = useTranslation();
  return { t: t as Translate, i18n: instance };
}
