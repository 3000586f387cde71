import { z } from 'zod';
import { DETAIL_TABS, FIELD_TYPES, SIDEBAR_GROUPS, type ResourceDef } from '../../../domain/fields';
import { LANGUAGES, type Language } from '../../../domain/enums';
import { PERMISSIONS, type Area } from '../../../domain/permissions';
import { RESOURCES } from '../../../domain/resources/index';

// The check of declarations that arrive at run time, in a chunk of its own: it needs zod, which
// the calendar does not, and most centres have no such declarations (runtime.tsx loads this
// only when the server sends some).

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
  personal: z.union([z.literal(true), z.literal('name')]).optional(),
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
