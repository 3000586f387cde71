import { z } from 'zod';
import { customFieldDef } from './custom-fields';
import { type FieldDef, hasVisibleCharacter, isReservedKey, type ResourceDef, SIDEBAR_GROUPS } from './fields';
import { labelKey } from './references';
import { hasDeceptiveCharacter } from './text';
import { RESOURCES } from './resources/index';

// Custom entities: record types a centre's ROOT defines at run time. A definition is data
// (slug, names, fields); its records are served and shown through the same field registry
// as every built-in resource, and the definition becomes a ResourceDef at run time.

export const CUSTOM_ENTITY_FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'SINGLE_CHOICE', 'MULTIPLE_CHOICE', 'BOOLEAN', 'REFERENCE'] as const;
export type CustomEntityFieldType = (typeof CUSTOM_ENTITY_FIELD_TYPES)[number];

/** Icons an entity may take (antd icon names). */
export const CUSTOM_ENTITY_ICONS = [
  'AppstoreOutlined',
  'BookOutlined',
  'CalendarOutlined',
  'CarOutlined',
  'CheckSquareOutlined',
  'CommentOutlined',
  'ContainerOutlined',
  'DatabaseOutlined',
  'ExperimentOutlined',
  'FileTextOutlined',
  'FlagOutlined',
  'FolderOutlined',
  'GiftOutlined',
  'HeartOutlined',
  'HomeOutlined',
  'IdcardOutlined',
  'LaptopOutlined',
  'ProfileOutlined',
  'ReadOutlined',
  'RocketOutlined',
  'ScheduleOutlined',
  'SolutionOutlined',
  'StarOutlined',
  'TagsOutlined',
  'TeamOutlined',
  'TrophyOutlined',
  'UnorderedListOutlined',
  'UserOutlined',
] as const;

/** Built-in resources a REFERENCE field may point at (each has a `name`-like label). */
export const REFERENCE_TARGETS = ['students', 'teachers', 'classes', 'subjects', 'rooms', 'lesson-types', 'lesson-tags', 'class-categories'] as const;

/** Words a slug may never be: route segments and names code treats specially. */
const RESERVED_SLUGS = new Set([
  'new',
  'builder',
  'entity',
  'entities',
  'api',
  'records',
  'settings',
  'runtime',
  'resources',
  'custom-entities',
  'custom-fields',
  'options',
  'import',
  'export',
  'history',
  'admin',
  'login',
  'logout',
  'mydata',
  'calendar',
  'analytics',
  'account',
  'file-management',
  'files',
  'folders',
  'notifications',
  'prototype',
  'constructor',
  'null',
  'undefined',
]);

export const SLUG_RE = /^[a-z][a-z0-9-]{1,39}$/;
export const FIELD_KEY_RE = /^[a-z][a-z0-9_]{0,39}$/;

/** A slug that collides with a built-in resource, a route or a reserved word. */
export function isReservedSlug(slug: string): boolean {
  const s = slug.toLowerCase();
  return RESERVED_SLUGS.has(s) || Object.hasOwn(RESOURCES, s) || isReservedKey(s) || s.endsWith('-') || s.includes('--');
}

/** Keys every record has, so no field may take them. */
const RESERVED_FIELD_KEYS = new Set(['id', 'version', 'tenant_id', 'entity_id', 'created_at', 'updated_at', 'q', 'search', 'data', 'with_records']);
export const isReservedFieldKey = (key: string) => RESERVED_FIELD_KEYS.has(key) || isReservedKey(key) || key.startsWith('_');

export interface CustomEntityField {
  key: string;
  label_el: string;
  label_en: string;
  type: CustomEntityFieldType;
  required: boolean;
  options: string[] | null;
  /** REFERENCE: a built-in resource name or `custom:<slug>`. */
  target: string | null;
  position: number;
  shown_in_list: boolean;
  searchable: boolean;
}

export interface CustomEntity {
  id: number;
  slug: string;
  name_el: string;
  name_en: string;
  name_plural_el: string;
  name_plural_en: string;
  description: string | null;
  icon: string | null;
  group: string | null;
  fields: CustomEntityField[];
  version: number;
}

/** The API name of a custom entity's records: `custom-entities/<slug>/records`. */
export const recordsResourceName = (slug: string) => `custom-entities/${slug}/records`;
/** How history names a custom entity's records. */
export const recordsHistoryEntity = (slug: string) => `custom:${slug}`;

/** A REFERENCE target as a resource name: `students`, or `custom-entities/<slug>/records` for `custom:<slug>`. */
export const targetResource = (target: string) => (target.startsWith('custom:') ? recordsResourceName(target.slice(7)) : target);

/** One field of an entity as a FieldDef of the registry. */
export function entityFieldDef(field: Pick<CustomEntityField, 'key' | 'type' | 'required' | 'options' | 'target' | 'searchable'>, label?: string): FieldDef {
  if (field.type === 'REFERENCE') {
    return {
      name: field.key,
      type: 'REFERENCE',
      reference: field.target ? targetResource(field.target) : undefined,
      required: field.required,
      label,
      // Sorted by the referenced record's name (the server joins its sort key).
      sortable: true,
      filterable: true,
    };
  }
  const def = customFieldDef({ key: field.key, label: label ?? field.key, type: field.type, options: field.options, required: field.required });
  return { ...def, label, searchable: field.type === 'TEXT' && field.searchable ? true : undefined };
}

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // No controls or direction overrides, and something to see (not zero-width characters only).
    .refine((v) => !hasDeceptiveCharacter(v), { params: { code: 'invalid-format' }, abort: true })
    .refine(hasVisibleCharacter, { params: { code: 'required' } });

const FieldInput = z.strictObject({
  key: z
    .string()
    .regex(FIELD_KEY_RE)
    .refine((k) => !isReservedFieldKey(k), { params: { code: 'reserved' } }),
  label_el: text(100),
  label_en: text(100),
  type: z.enum(CUSTOM_ENTITY_FIELD_TYPES),
  required: z.boolean().optional().default(false),
  options: z.array(text(100)).max(100).nullable().optional(),
  target: z.string().max(60).nullable().optional(),
  position: z.number().int().min(0).max(1000).optional(),
  shown_in_list: z.boolean().optional().default(true),
  searchable: z.boolean().optional().default(false),
});

/** The fields of a definition: 1..50, keys unique, options and targets fitting each type. */
export const entityFieldsSchema = z
  .array(FieldInput)
  .min(1)
  .max(50)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    // A REFERENCE's label travels beside it under its own name: no other field may take that name.
    const labels = new Set(fields.filter((f) => f.type === 'REFERENCE').map((f) => labelKey({ name: f.key, type: 'REFERENCE' })));
    fields.forEach((f, i) => {
      if (labels.has(f.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], params: { code: 'duplicate' }, message: 'a reference label takes this name' });
      if (seen.has(f.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], params: { code: 'duplicate' }, message: 'duplicate key' });
      seen.add(f.key);
      const choice = f.type === 'SINGLE_CHOICE' || f.type === 'MULTIPLE_CHOICE';
      if (choice && !f.options?.length) ctx.addIssue({ code: 'custom', path: [i, 'options'], params: { code: 'required' }, message: 'options required' });
      if (!choice && f.options?.length) ctx.addIssue({ code: 'custom', path: [i, 'options'], params: { code: 'invalid' }, message: 'no options' });
      if (choice && f.options && new Set(f.options).size !== f.options.length)
        ctx.addIssue({ code: 'custom', path: [i, 'options'], params: { code: 'duplicate' }, message: 'duplicate option' });
      if (f.type === 'REFERENCE') {
        const t = f.target ?? '';
        const ok = (REFERENCE_TARGETS as readonly string[]).includes(t) || (t.startsWith('custom:') && SLUG_RE.test(t.slice(7)));
        if (!ok) ctx.addIssue({ code: 'custom', path: [i, 'target'], params: { code: t ? 'invalid-option' : 'required' }, message: 'bad target' });
      } else if (f.target) ctx.addIssue({ code: 'custom', path: [i, 'target'], params: { code: 'invalid' }, message: 'no target' });
    });
  })
  // Stored in their order, numbered 0, 1, 2… (a tie keeps the order they were sent in).
  .transform((sent) =>
    sent
      .map((f, i) => ({ f, at: f.position ?? i, i }))
      .sort((a, b) => a.at - b.at || a.i - b.i)
      .map(({ f }) => f)
      .map(
        (f, i): CustomEntityField => ({
          key: f.key,
          label_el: f.label_el,
          label_en: f.label_en,
          type: f.type,
          required: f.required,
          options: f.type === 'SINGLE_CHOICE' || f.type === 'MULTIPLE_CHOICE' ? (f.options ?? null) : null,
          target: f.type === 'REFERENCE' ? (f.target ?? null) : null,
          position: i,
          shown_in_list: f.shown_in_list,
          searchable: f.searchable,
        }),
      ),
  );

const definitionShape = {
  slug: z
    .string()
    .max(60)
    .refine((s) => !isReservedSlug(s), { params: { code: 'reserved' }, abort: true })
    .regex(SLUG_RE),
  name_el: text(100),
  name_en: text(100),
  name_plural_el: text(100),
  name_plural_en: text(100),
  description: z
    .string()
    .trim()
    .max(1000)
    .refine((v) => !hasDeceptiveCharacter(v, true), { params: { code: 'invalid-format' } })
    .nullable()
    .optional(),
  icon: z.enum(CUSTOM_ENTITY_ICONS).nullable().optional(),
  group: z.enum(SIDEBAR_GROUPS).nullable().optional(),
  fields: entityFieldsSchema,
};

/** POST /api/custom-entities */
export const entityCreateSchema = z.strictObject(definitionShape);
/** PATCH /api/custom-entities/:id: the slug never changes; `discard_values` names removed fields whose values go. */
export const entityUpdateSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(definitionShape).map(([k, v]) => [k, v.optional()])),
  slug: z.string().max(60).optional(),
  version: z.number().int().min(0).max(2_147_483_647),
  discard_values: z.array(z.string().max(40)).max(50).optional(),
}) as unknown as z.ZodType<
  Partial<Omit<z.infer<typeof entityCreateSchema>, 'fields'>> & { fields?: CustomEntityField[]; version: number; discard_values?: string[] }
>;

export interface RuntimeLabels {
  name: string;
  plural: string;
  fields: Record<string, string>;
}

/** The declaration the client mounts for an entity's records, with its labels in both languages. */
export function runtimeDeclaration(
  entity: Omit<CustomEntity, 'version'>,
): ResourceDef & { labels: { el: RuntimeLabels; en: RuntimeLabels }; description: string | null } {
  const fields = [...entity.fields].sort((a, b) => a.position - b.position);
  const labels = (lang: 'el' | 'en'): RuntimeLabels => ({
    name: lang === 'el' ? entity.name_el : entity.name_en,
    plural: lang === 'el' ? entity.name_plural_el : entity.name_plural_en,
    fields: Object.fromEntries(fields.map((f) => [f.key, lang === 'el' ? f.label_el : f.label_en])),
  });
  const title = fields.find((f) => f.type === 'TEXT') ?? fields[0]!;
  return {
    name: recordsResourceName(entity.slug),
    area: 'customEntityRecords',
    fields: fields.map((f) => entityFieldDef(f)),
    defaultSort: [{ field: 'id', order: 'desc' }],
    screen: {
      route: `/custom-entities/entity/${entity.slug}/`,
      entity: 'custom_entity_instance',
      modes: ['create', 'update', 'view'],
      ...(entity.icon ? { icon: entity.icon } : {}),
      ...(entity.group ? { group: entity.group as (typeof SIDEBAR_GROUPS)[number] } : {}),
      titleFields: [title.key],
      listFields: fields.filter((f) => f.shown_in_list).map((f) => f.key),
      formFields: fields.map((f) => f.key),
    },
    labels: { el: labels('el'), en: labels('en') },
    description: entity.description,
  };
}
