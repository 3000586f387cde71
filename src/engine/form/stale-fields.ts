import type { CustomFieldDefinition } from '../../../domain/custom-fields';
import { customFieldDef } from '../../../domain/custom-fields';
import type { ResourceDef } from '../../../domain/fields';
import { labelOf, valueText } from '../fields/format';
import { changedFields, type CompareFields, shown } from './stale';
import type { Translate } from '../../providers/i18nProvider';

/**
 * The stale comparison of a declared resource's form: each field under its label, dates, money
 * and choices as the screens show them, and the custom values one line each under their own
 * labels (never the object they are stored in).
 */
export function declaredComparison(t: Translate, def: ResourceDef, customFields: readonly CustomFieldDefinition[] = []): CompareFields {
  return (mine, theirs) =>
    changedFields(mine, theirs).flatMap((name) => {
      const field = def.fields.find((f) => f.name === name);
      if (field?.type === 'CUSTOM_VALUES') {
        const before = (mine[name] ?? {}) as Record<string, unknown>;
        const after = (theirs[name] ?? {}) as Record<string, unknown>;
        return [...new Set([...Object.keys(before), ...Object.keys(after)])].flatMap((key) => {
          const definition = customFields.find((d) => d.key === key);
          const text = (value: unknown) => (definition ? valueText(t, customFieldDef(definition), value) || '—' : shown(value));
          const [a, b] = [text(before[key]), text(after[key])];
          return a === b ? [] : [{ key: `${name}.${key}`, label: definition?.label ?? key, mine: a, theirs: b }];
        });
      }
      // a reference's own text needs the row's labels, which the typed values lack
      const plain = !field || field.type === 'REFERENCE' || field.type === 'REFERENCES';
      const text = (value: unknown) => (plain ? shown(value) : valueText(t, field, value) || shown(value));
      return [{ key: name, label: field ? labelOf(t, def, field) : name, mine: text(mine[name]), theirs: text(theirs[name]) }];
    });
}
