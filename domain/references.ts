// Where a reference's label travels beside its id: `category_id` comes with
// `category: {id, name}`, `class_ids` with `classes: [{id, name}]`. Server and client both name
// labels through this one function.
export function labelKey(field: { name: string; type: string }): string {
  if (field.type === 'REFERENCES') {
    const base = field.name.replace(/_ids$/, '');
    return /(s|x|ch|sh)$/.test(base) ? `${base}es` : `${base}s`;
  }
  // A name without `_id` (a custom entity's `student`) keeps its label beside it as `student_label`.
  return /_id$/.test(field.name) ? field.name.replace(/_id$/, '') : `${field.name}_label`;
}

/** A reference's label: name is null (and deleted true) for a soft-deleted row such as a teacher. */
export interface ReferenceLabel {
  id: number | null;
  name: string | null;
  deleted?: true;
}
