import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { z } from 'zod';
import { DETAIL_TABS, FIELD_TYPES, SIDEBAR_GROUPS, type ResourceDef } from '../../domain/fields';
import { PERMISSIONS, type Area } from '../../domain/permissions';
import { RESOURCES } from '../../domain/resources/index';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../domain/enums';
import { http } from '../providers/http';
import { i18n, type Tree } from '../providers/i18nProvider';
import { setRuntimeDeclarations } from './registry';

/** Where resources declared at run time live: `/custom-entities/entity/<slug>/`. */
export const RUNTIME_ROUTE = '/custom-entities/entity/';
const ROUTE_RE = /^\/custom-entities\/entity\/[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\/$/;
const NAME_RE = /^[a-z0-9](?:[a-z0-9/-]{0,98}[a-z0-9])?$/;
const FIELD_RE = /^[a-z][a-z0-9_]{0,62}$/;

const names = z.array(z.string().regex(FIELD_RE)).max(200);

// The JSON form of a ResourceDef. Page names are refused: a runtime declaration is shown by
// the generic screen, never by code the build does not have.
const FieldJson = z.object({
  name: z.string().regex(FIELD_RE),
  type: z.enum(FIELD_TYPES),
  required: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  options: z.array(z.string().max(200)).max(500).optional(),
  integer: z.boolean().optional(),
  reference: z.string().regex(NAME_RE).optional(),
  matches: z.string().regex(FIELD_RE).optional(),
  default: z.unknown().optional(),
  writeOnly: z.boolean().optional(),
  readOnly: z.boolean().optional(),
  createOnly: z.boolean().optional(),
  sortable: z.boolean().optional(),
  filterable: z.boolean().optional(),
  searchable: z.boolean().optional(),
  label: z.string().max(200).optional(),
});

const short = z.string().max(200);
/** What a custom entity is called in one language, and its fields' labels. */
const LabelsJson = z.object({
  name: short.optional(),
  plural: short.optional(),
  description: z.string().max(2000).nullable().optional(),
  fields: z.record(z.string().regex(FIELD_RE), short).optional(),
});

const DeclarationJson = z.object({
  name: z.string().regex(NAME_RE),
  labels: z.partialRecord(z.enum(LANGUAGES), LabelsJson).optional(),
  description: z.string().max(2000).nullable().optional(),
  area: z.string().refine((a): a is Area => Object.hasOwn(PERMISSIONS, a)),
  fields: z.array(FieldJson).min(1).max(200),
  defaultSort: z.array(z.object({ field: z.string().regex(FIELD_RE), order: z.enum(['asc', 'desc']) })).max(5),
  scope: z.enum(['tenant', 'platform']).optional(),
  screen: z.strictObject({
    route: z.string().regex(ROUTE_RE),
    entity: z.string().regex(FIELD_RE),
    modes: z.array(z.enum(['create', 'update', 'view'])).max(3),
    icon: z.string().max(40).optional(),
    group: z.enum(SIDEBAR_GROUPS).optional(),
    hidden: z.boolean().optional(),
    opensFor: z.enum(['readers', 'writers']).optional(),
    titleFields: names.optional(),
    listFields: names.optional(),
    formFields: names.optional(),
    tabs: z.array(z.enum(DETAIL_TABS)).optional(),
    ownerField: z.string().regex(FIELD_RE).optional(),
  }),
});

export type RuntimeLabels = Partial<Record<Language, z.infer<typeof LabelsJson>>>;

/** A declaration that arrived at run time: a ResourceDef with its names in each language. */
export type RuntimeDeclaration = ResourceDef & { labels?: RuntimeLabels };

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

/** Teaches i18next the names of the runtime declarations in every language. */
function registerTranslations(defs: readonly RuntimeDeclaration[]) {
  for (const language of LANGUAGES) {
    const tree: Tree = {};
    for (const def of defs) tree[def.name] = runtimeTranslations(def, language, (key, options) => i18n.t(key, options));
    i18n.addResourceBundle(language, 'translation', tree, true, true);
  }
}

/**
 * Declarations from the server's JSON (`{data: [...]}` or a bare list). One that does not fit
 * is left out (and said on the console), never a broken screen; so is a second one for a route.
 */
export function parseRuntimeDeclarations(json: unknown): RuntimeDeclaration[] {
  const list = Array.isArray(json) ? json : Array.isArray((json as { data?: unknown } | null)?.data) ? (json as { data: unknown[] }).data : [];
  const taken = new Set(Object.values(RESOURCES).map((d) => d.screen.route));
  const out: RuntimeDeclaration[] = [];
  for (const item of list) {
    const parsed = DeclarationJson.safeParse(item);
    if (!parsed.success) {
      console.warn('A runtime resource declaration was left out:', parsed.error.issues[0]);
      continue;
    }
    const { labels, description, ...rest } = parsed.data;
    const def = (labels ? { ...rest, labels } : rest) as RuntimeDeclaration;
    // a description beside the labels is the same in both languages
    if (description && labels) for (const l of Object.values(labels)) l.description ??= description;
    if (taken.has(def.screen.route)) continue;
    taken.add(def.screen.route);
    out.push(def);
  }
  return out;
}

/** The server's runtime declarations (none until custom entities arrive). */
export async function fetchRuntimeDeclarations(): Promise<unknown> {
  const { data } = await http.get<unknown>('/api/resources/runtime');
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
      source().then((json) => {
        const defs = parseRuntimeDeclarations(json);
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
