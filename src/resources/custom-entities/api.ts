import {
  CUSTOM_ENTITY_FIELD_TYPES,
  type CustomEntity,
  type CustomEntityField,
  REFERENCE_TARGETS,
  targetResource as domainTarget,
} from '../../../domain/custom-entities';
import type { Language } from '../../../domain/enums';
import type { FieldDef } from '../../../domain/fields';
import type { ApiErrorBody } from '../../providers/http';

// The shapes of /api/custom-entities as the builder and the list read and write them.

/** The field types an entity's field may take. */
export const ENTITY_FIELD_TYPES = CUSTOM_ENTITY_FIELD_TYPES;
/** Built-in resources a REFERENCE field may point to. */
export const BUILT_IN_TARGETS = REFERENCE_TARGETS;

/** A field as the builder edits it: its position is its place in the list until saved. */
export type EntityField = Omit<CustomEntityField, 'position'> & { position?: number };

/** An entity as /api/custom-entities answers it. */
export type EntityRow = Omit<CustomEntity, 'fields'> & { fields: EntityField[]; created_at?: string; updated_at?: string };

export const isChoice = (type: string | undefined) => type === 'SINGLE_CHOICE' || type === 'MULTIPLE_CHOICE';

/** Where the records of an entity are listed. */
export const recordsRoute = (slug: string) => `/custom-entities/entity/${slug}/`;

/** The resource a REFERENCE target names: a built-in name, or a custom entity's records. */
export const targetResource = (target: string | null | undefined): string | undefined => {
  return target ? domainTarget(target) : undefined;
};

/** An entity's name in `language`, falling back to the other one. */
export const entityName = (
  row: Pick<EntityRow, 'name_el' | 'name_en' | 'slug'>,
  language: Language | string,
  plural?: Pick<EntityRow, 'name_plural_el' | 'name_plural_en'>,
) => {
  const [el, en] = plural ? [plural.name_plural_el, plural.name_plural_en] : [row.name_el, row.name_en];
  return (language === 'en' ? en || el : el || en) || row.slug;
};

/** A field of the builder as the field registry reads it (the live preview). */
export function previewField(field: Partial<EntityField>, index: number, language: string): { def: FieldDef; label: string } {
  const type = field.type ?? 'TEXT';
  const label = (language === 'en' ? field.label_en || field.label_el : field.label_el || field.label_en) || field.key || `#${index + 1}`;
  const options = isChoice(type) ? (field.options ?? []).filter(Boolean) : undefined;
  return {
    label,
    def: {
      name: `f${index}_${field.key ?? ''}`,
      type,
      label,
      required: Boolean(field.required),
      ...(options ? { options } : {}),
      ...(type === 'REFERENCE' ? { reference: targetResource(field.target) ?? 'students' } : {}),
    },
  };
}

/** `count`, `field` and `reason` of a 409 in-use answer about an entity. */
export function inUseDetails(body: unknown): { count?: number; field?: string; reason?: string } {
  const details = (body as ApiErrorBody | undefined)?.error?.details;
  return { count: details?.count, field: details?.field, reason: details?.reason };
}

/** The builder's form values: an entity without its id and version, fields still being typed. */
export type Values = Omit<EntityRow, 'id' | 'version' | 'fields'> & { fields: Partial<EntityField>[] };

/** The body the API takes: trimmed texts, options only for choices, a target only for references, positions in order. */
export function entityBody(values: Values): Record<string, unknown> {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
  return {
    slug: text(values.slug),
    name_el: text(values.name_el),
    name_en: text(values.name_en),
    name_plural_el: text(values.name_plural_el),
    name_plural_en: text(values.name_plural_en),
    description: text(values.description) || null,
    icon: values.icon ?? null,
    group: values.group || null,
    fields: (values.fields ?? []).map((f, position) => ({
      key: text(f.key),
      label_el: text(f.label_el),
      label_en: text(f.label_en),
      type: f.type,
      required: Boolean(f.required),
      options: isChoice(f.type) ? (f.options ?? []).map((o) => String(o).trim()).filter(Boolean) : null,
      target: f.type === 'REFERENCE' ? (f.target ?? null) : null,
      position,
      shown_in_list: Boolean(f.shown_in_list),
      searchable: Boolean(f.searchable),
    })),
  };
}

/** A stored entity as the form holds it: fields in their order, no nulls in the choice lists. */
export const toValues = (row: EntityRow) => ({
  ...row,
  fields: [...row.fields].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).map((f) => ({ ...f, options: f.options ?? [] })),
});

/** A server field code `fields.2.key` as the form's path `['fields', 2, 'key']`. */
export const formPath = (name: string): (string | number)[] => name.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
