import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../../domain/enums';
import { API_URL, dataProvider } from '../../providers/dataProvider';
import { i18n, type Tree } from '../../providers/i18nProvider';
import { setRuntimeDeclarations } from '../registry';
import type { RuntimeDeclaration, RuntimeLabels } from './runtime-parse';

export type { RuntimeDeclaration, RuntimeLabels } from './runtime-parse';

/** Where resources declared at run time live: `/custom-entities/entity/<slug>/`. */
export const RUNTIME_ROUTE = '/custom-entities/entity/';

const listOf = (json: unknown): unknown[] =>
  Array.isArray(json) ? json : Array.isArray((json as { data?: unknown } | null)?.data) ? (json as { data: unknown[] }).data : [];

/** The declarations in the server's JSON, checked (the checker loads only when there are some). */
async function declarationsIn(json: unknown): Promise<RuntimeDeclaration[]> {
  if (listOf(json).length === 0) return [];
  const { parseRuntimeDeclarations } = await import('./runtime-parse');
  return parseRuntimeDeclarations(json);
}

/**
 * The text of `pick` in `language`, else in the other languages (Greek first), else undefined:
 * an entity named only in Greek still has a name in the English screen.
 */
export function pickLabel(labels: RuntimeLabels | undefined, language: string, pick: (l: NonNullable<RuntimeLabels[Language]>) => string | null | undefined) {
  const order = [language, DEFAULT_LANGUAGE, ...LANGUAGES].filter((l): l is Language => (LANGUAGES as readonly string[]).includes(l));
  for (const l of order) {
    const text = labels?.[l] ? pick(labels[l]!) : undefined;
    if (typeof text === 'string' && text.trim() !== '') return text;
  }
  return undefined;
}

/**
 * The i18n keys of a runtime declaration in one language (`<name>.title`, `<name>.fields.<key>`…),
 * so the generic screen, the sidebar and the History tab name it as they name built-in ones.
 */
export function runtimeTranslations(def: RuntimeDeclaration, language: Language, t: (key: string, options: Record<string, unknown>) => string): Tree {
  const plural = pickLabel(def.labels, language, (l) => l.plural) ?? pickLabel(def.labels, language, (l) => l.name) ?? def.name;
  const name = pickLabel(def.labels, language, (l) => l.name) ?? plural;
  const fields: Tree = {};
  for (const field of def.fields) fields[field.name] = pickLabel(def.labels, language, (l) => l.fields?.[field.name]) ?? field.name;
  return {
    [def.name]: plural,
    title: plural,
    create: t('customEntities.records.create', { name, lng: language }),
    edit: t('customEntities.records.edit', { name, lng: language }),
    view: name,
    description: pickLabel(def.labels, language, (l) => l.description) ?? '',
    fields,
  };
}

/** The declarations whose names i18next was taught, for a language whose strings arrive later. */
let named: readonly RuntimeDeclaration[] = [];

function teach(language: Language) {
  const tree: Tree = {};
  // A declaration without names of its own keeps the translations the client already has.
  for (const def of named) if (def.labels) tree[def.name] = runtimeTranslations(def, language, (key, options) => i18n.t(key, options));
  i18n.addResourceBundle(language, 'translation', tree, true, true);
}

/**
 * Teaches i18next the names of the runtime declarations in every language whose strings are
 * here; a language fetched later (English, when chosen) learns them as its strings arrive.
 */
function registerTranslations(defs: readonly RuntimeDeclaration[]) {
  named = defs;
  for (const language of LANGUAGES) if (i18n.hasResourceBundle(language, 'translation')) teach(language);
}
i18n.on('loaded', (loaded: Record<string, unknown>) => {
  for (const language of LANGUAGES) if (named.length && language in loaded) teach(language);
});

/**
 * The server's runtime declarations (none until custom entities arrive). Through the data
 * provider, not a hook: App asks for them above <Refine>, whose resources they become.
 */
export async function fetchRuntimeDeclarations(): Promise<unknown> {
  const { data } = await dataProvider.custom!({ url: `${API_URL}/resources/runtime`, method: 'get' });
  return data;
}

interface RuntimeResources {
  declarations: readonly RuntimeDeclaration[];
  /** Loads the declarations once (after sign-in; later calls do nothing). */
  load(): void;
  /** Loads them again (after the builder saved an entity): new ones appear in the sidebar at once. */
  reload(): Promise<void>;
}

const RuntimeContext = createContext<RuntimeResources>({ declarations: [], load: () => undefined, reload: async () => undefined });

/**
 * Holds the declarations that arrived at run time and mounts them: the access check learns
 * them, then the Refine resources and the routes follow (App reads `declarations`).
 */
export function useRuntimeResourcesState(source: () => Promise<unknown>): RuntimeResources {
  const [declarations, setDeclarations] = useState<readonly RuntimeDeclaration[]>([]);
  const started = useRef(false);
  // The next sign-in mounts a new App: nothing of this user's declarations stays behind.
  useEffect(() => () => setRuntimeDeclarations([]), []);
  const fetchAll = useCallback(
    () =>
      source().then(async (json) => {
        const defs = await declarationsIn(json);
        registerTranslations(defs);
        setRuntimeDeclarations(defs);
        setDeclarations(defs);
      }),
    [source],
  );
  const reload = useCallback(() => fetchAll().catch((error: unknown) => console.warn('Runtime resources could not be loaded:', error)), [fetchAll]);
  const load = useCallback(() => {
    if (started.current) return;
    started.current = true;
    // right after sign-in a request may meet a session still settling: try again a few times
    const attempt = (left: number) =>
      fetchAll().catch((error: unknown) => {
        if (left > 0) setTimeout(() => attempt(left - 1), 2000);
        else console.warn('Runtime resources could not be loaded:', error);
      });
    void attempt(3);
  }, [fetchAll]);
  return useMemo(() => ({ declarations, load, reload }), [declarations, load, reload]);
}

export function RuntimeResourcesProvider({ value, children }: { value: RuntimeResources; children: ReactNode }) {
  return <RuntimeContext.Provider value={value}>{children}</RuntimeContext.Provider>;
}

export const useRuntimeResources = () => useContext(RuntimeContext);
