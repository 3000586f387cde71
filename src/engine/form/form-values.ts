/** Empty means null; a new row leaves nulls (and empty lists) out. The body of `names` from a form's values. */
export function writtenValues(values: Record<string, unknown>, names: readonly string[], dropNulls: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of names) {
    let v = values[name];
    if (typeof v === 'string') v = v.trim();
    if (v === '' || v === undefined) v = null;
    if (dropNulls && (v === null || (Array.isArray(v) && v.length === 0))) continue;
    body[name] = v;
  }
  return body;
}

const empty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);
/** Lists compare as sets; empty, null and missing are the same. */
const same = (a: unknown, b: unknown) => {
  const norm = (v: unknown) => (Array.isArray(v) ? JSON.stringify([...v].sort()) : JSON.stringify(v ?? null));
  return (empty(a) && empty(b)) || norm(a) === norm(b);
};

/** The fields of `names` whose form values differ from the row's: what an update sends. */
export function changedValues(values: Record<string, unknown>, row: Record<string, unknown>, names: readonly string[]) {
  const body = writtenValues(values, names, false);
  return Object.fromEntries(Object.entries(body).filter(([k, v]) => !same(v, row[k])));
}
