import { Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ReferenceSelect } from '../../engine/fields/reference-select';
import type { CalendarFilters } from './lesson-calendar';

const FILTERS = [
  { param: 'teacher_id', reference: 'teachers', label: 'lessons.fields.teacher_id' },
  { param: 'class_id', reference: 'classes', label: 'lessons.fields.class_id' },
  { param: 'room_id', reference: 'rooms', label: 'lessons.fields.room_id' },
  { param: 'subject_id', reference: 'subjects', label: 'lessons.fields.subject_id' },
] as const;

type Param = (typeof FILTERS)[number]['param'];

/** The calendar's filters, kept in the URL (`?teacher_id=3&teacher_id=5&room_id=2`). */
export function useCalendarFilters(): [CalendarFilters, (param: Param, ids: number[]) => void] {
  const [params, setParams] = useSearchParams();
  const key = FILTERS.map((f) => params.getAll(f.param).join(',')).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters change only when the calendar's own parameters do
  const filters = useMemo(() => {
    const out: CalendarFilters = {};
    for (const f of FILTERS) {
      const ids = params
        .getAll(f.param)
        .filter((v) => /^\d+$/.test(v))
        .map(Number);
      if (ids.length) out[f.param] = ids;
    }
    return out;
  }, [key]);
  const set = (param: Param, ids: number[]) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      copy.delete(param);
      for (const id of ids) copy.append(param, String(id));
      return copy;
    });
  return [filters, set];
}

export function CalendarFilterBar({
  filters,
  onChange,
  teacherFilter,
}: {
  filters: CalendarFilters;
  onChange(param: Param, ids: number[]): void;
  teacherFilter: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Row gutter={[12, 8]} style={{ marginBottom: 12 }} data-testid="calendar-filters">
      {FILTERS.filter((f) => teacherFilter || f.param !== 'teacher_id').map((f) => (
        <Col key={f.param} xs={24} sm={12} lg={6}>
          <fieldset aria-label={t(f.label)} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <div style={{ fontSize: 12, opacity: 0.7, marginBottom: 2 }}>{t(f.label)}</div>
            <ReferenceSelect
              aria-label={t(f.label)}
              multiple
              reference={f.reference}
              value={filters[f.param] ?? []}
              onChange={(v) => onChange(f.param, (v as number[] | null) ?? [])}
            />
          </fieldset>
        </Col>
      ))}
    </Row>
  );
}
