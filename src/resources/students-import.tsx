import { useMemo } from 'react';
import { customFieldDef, type CustomFieldDefinition } from '../../domain/custom-fields';
import { STUDENTS } from '../../domain/resources/people';
import { labelOf } from '../engine/fields/format';
import { CsvImport } from '../engine/import/csv-import';
import type { ImportTarget } from '../engine/import/csv-rows';
import { useT } from '../providers/i18nProvider';

/** The student fields a CSV may fill (references and computed fields are left to the form). */
const IMPORTABLE = STUDENTS.fields.filter((f) => !f.readOnly && !['REFERENCES', 'CUSTOM_VALUES'].includes(f.type));

/** Students from CSV: their declared fields and the centre's custom fields. */
export function StudentImport({ customFields, open, onClose }: { customFields: readonly CustomFieldDefinition[]; open: boolean; onClose(): void }) {
  const { t } = useT();
  const targets = useMemo<ImportTarget[]>(
    () => [
      ...IMPORTABLE.map((field) => ({ key: field.name, label: labelOf(t, STUDENTS, field), field, custom: false })),
      ...customFields.map((d) => ({ key: `custom_fields.${d.key}`, label: d.label, field: customFieldDef(d), custom: true })),
    ],
    [customFields, t],
  );
  return <CsvImport resource={STUDENTS.name} targets={targets} open={open} onClose={onClose} />;
}
