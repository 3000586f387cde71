import { type CrudFilter, useList } from '@refinedev/core';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { declarationOf } from '../registry';
import { formatDate, refName, type RefLabel } from './format';
import { useT } from '../../providers/i18nProvider';

/**
 * A guardian as a picker names her (docs/rules.md, Guardians): two of the same name are told
 * apart by their children and the phone's last digits, "Μαρία Παππά · Νίκος Παππάς, Ελένη Παππά · …4567".
 */
function guardianLabel(row: Record<string, unknown>): string {
  const name = `${String(row.first_name ?? '')} ${String(row.last_name ?? '')}`.trim();
  const children = ((row.students as RefLabel[] | undefined) ?? []).map((s) => s.name).filter(Boolean);
  const digits = String(row.phone ?? '').replace(/\D/g, '');
  const phone = digits.length >= 4 ? `…${digits.slice(-4)}` : '';
  return [name, children.join(', '), phone].filter(Boolean).join(' · ');
}

/** How a row of a referenced resource is named in a select. */
export function rowLabel(resource: string, row: Record<string, unknown>): string {
  if (resource === 'guardians') return guardianLabel(row);
  if (resource === 'students' || resource === 'teachers' || resource === 'users')
    return `${String(row.first_name ?? '')} ${String(row.last_name ?? '')}`.trim();
  if (resource === 'notes') return String(row.title ?? '');
  if (resource === 'lessons') return `${formatDate(String(row.date ?? ''))} ${String(row.start_time ?? '')}`.trim();
  // a declaration naming its title fields (custom entities' records): those, joined
  const titleFields = declarationOf(resource)?.screen.titleFields;
  if (titleFields?.length) {
    const title = titleFields
      .map((f) => row[f])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .map(String)
      .join(' ');
    if (title) return title;
  }
  return String(row.name ?? row.label ?? row.id);
}

interface Props {
  reference: string;
  multiple?: boolean;
  value?: number | number[] | null;
  onChange?(value: number | number[] | null): void;
  /** Labels of the current value(s), from the row being edited (`x` / `xs`). */
  known?: RefLabel[];
  id?: string;
  disabled?: boolean;
  /** The name a screen reader says, when no form label names the select. */
  'aria-label'?: string;
  /** Only rows these filters keep are offered (a student's guardians); asked for at once. */
  filters?: CrudFilter[];
}

/**
 * Picks rows of another resource: types into the list API's `q` search (accent-insensitive on
 * the server), showing labels; the labels of values already chosen come with the record.
 */
export function ReferenceSelect({ reference, multiple, value, onChange, known = [], id, disabled, 'aria-label': ariaLabel, filters }: Props) {
  const { t } = useT();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<RefLabel[]>([]);
  // The choices are asked for when the select is first used, so a screen full of selects (the
  // calendar's filters, a form) does not hold up what it shows first; at once only when a
  // chosen value has no label yet (ids from the address).
  const [used, setUsed] = useState(false);
  const chosen = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  const unnamed = chosen.some((v) => !known.some((k) => k.id === v) && !picked.some((p) => p.id === v));
  const { result, query } = useList<Record<string, unknown> & { id: number }>({
    resource: reference,
    pagination: { currentPage: 1, pageSize: 20, mode: 'server' },
    filters: [...(filters ?? []), ...(search.trim() ? [{ field: 'q', operator: 'eq' as const, value: search.trim() }] : [])],
    queryOptions: { placeholderData: (previous) => previous, enabled: used || unnamed || filters !== undefined },
  });

  const options = useMemo(() => {
    const seen = new Map<number, string>();
    for (const label of [...known, ...picked]) seen.set(label.id, refName(t, label, reference));
    for (const row of result.data ?? []) seen.set(row.id, rowLabel(reference, row));
    return [...seen].map(([v, label]) => ({ value: v, label }));
  }, [known, picked, result.data, reference, t]);

  return (
    <Select
      id={id}
      aria-label={ariaLabel}
      disabled={disabled}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch
      filterOption={false}
      onSearch={setSearch}
      onFocus={() => setUsed(true)}
      loading={query.isFetching}
      value={value ?? (multiple ? [] : undefined)}
      options={options}
      notFoundContent={query.isFetching || !query.isFetched ? undefined : t('table.empty')}
      onChange={(next: number | number[] | undefined) => {
        const chosen = Array.isArray(next) ? next : next === undefined ? [] : [next];
        setPicked(options.filter((o) => chosen.includes(o.value)).map((o) => ({ id: o.value, name: o.label })));
        setSearch('');
        onChange?.(next === undefined ? null : next);
      }}
      style={{ width: '100%' }}
    />
  );
}
