import { FilterOutlined } from '@ant-design/icons';
import type { CrudFilter, CrudFilters } from '@refinedev/core';
import { Badge, Button, Checkbox, Drawer, Form, Select, Space } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LESSON_STATUSES } from '../../../domain/enums';
import { DateRangePresets, type DateRange } from '../../engine/list/date-range-presets';
import { ReferenceSelect } from '../../engine/fields/reference-select';
import type { ListState } from '../../engine/list/list-table';
import { useLessonParams } from './lesson-drawers';

const REFS = [
  { field: 'teacher_id', reference: 'teachers' },
  { field: 'class_id', reference: 'classes' },
  { field: 'room_id', reference: 'rooms' },
  { field: 'subject_id', reference: 'subjects' },
  { field: 'lesson_type_id', reference: 'lesson-types' },
  { field: 'tag_ids', reference: 'lesson-tags' },
] as const;

const valueOf = (filters: CrudFilters, field: string, operator: string): unknown => {
  const found = filters.find((f) => 'field' in f && f.field === field && f.operator === operator);
  return found && 'value' in found ? found.value : undefined;
};
const ids = (v: unknown) => (Array.isArray(v) ? v.map(Number) : v !== undefined && v !== null && v !== '' ? [Number(v)] : []);

interface Values {
  dates?: DateRange | null;
  status?: string[];
  has_absences?: 'true' | 'false' | null;
  [ref: string]: unknown;
}

/** `?mode=filter`: every filter of the lessons list in one drawer, with the quick date ranges. */
export function LessonFilterDrawer({ state }: { state: ListState }) {
  const { t } = useTranslation();
  const { mode, nav } = useLessonParams(['filter']);
  const { filters } = state;
  const from = valueOf(filters, 'date', 'gte');
  const to = valueOf(filters, 'date', 'lte');
  const initial: Values = {
    dates: from && to ? [dayjs(String(from)), dayjs(String(to))] : null,
    status: ((valueOf(filters, 'status', 'in') as string[] | undefined) ?? []).map(String),
    has_absences: ((v) => (v === undefined || v === null || v === '' ? null : String(v) === 'true' ? 'true' : 'false'))(valueOf(filters, 'has_absences', 'eq')),
    ...Object.fromEntries(REFS.map((r) => [r.field, ids(valueOf(filters, r.field, 'in'))])),
  };
  const active = filters.filter((f) => 'field' in f && f.field !== 'q' && f.value !== undefined && f.value !== null).length;

  const apply = (values: Values) => {
    const next: CrudFilter[] = [
      { field: 'date', operator: 'gte', value: values.dates?.[0]?.format('YYYY-MM-DD') },
      { field: 'date', operator: 'lte', value: values.dates?.[1]?.format('YYYY-MM-DD') },
      { field: 'status', operator: 'in', value: values.status?.length ? values.status : undefined },
      { field: 'has_absences', operator: 'eq', value: values.has_absences ?? undefined },
      ...REFS.map(
        (r): CrudFilter => ({ field: r.field, operator: 'in', value: (values[r.field] as number[] | undefined)?.length ? values[r.field] : undefined }),
      ),
    ];
    nav.close();
    state.setFilters(next);
  };

  return (
    <>
      <Badge count={active} size="small">
        <Button icon={<FilterOutlined />} onClick={() => nav.go({ mode: 'filter' })}>
          {t('lessons.filters.title')}
        </Button>
      </Badge>
      <Drawer open={mode === 'filter'} title={t('lessons.filters.title')} onClose={nav.close} width={420} destroyOnHidden>
        <Form<Values> layout="vertical" initialValues={initial} onFinish={apply}>
          <Form.Item name="dates" label={t('lessons.fields.date')}>
            <DateRangePresets style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="status" label={t('lessons.fields.status')}>
            <Checkbox.Group options={LESSON_STATUSES.map((s) => ({ value: s, label: t(`enums.${s}`) }))} />
          </Form.Item>
          <Form.Item name="has_absences" label={t('attendance.hasAbsences')}>
            <Select
              allowClear
              aria-label={t('attendance.hasAbsences')}
              options={[
                { value: 'true', label: t('buttons.yes') },
                { value: 'false', label: t('buttons.no') },
              ]}
            />
          </Form.Item>
          {REFS.map((r) => (
            <Form.Item key={r.field} name={r.field} label={t(`lessons.fields.${r.field}`)}>
              <ReferenceSelect multiple reference={r.reference} />
            </Form.Item>
          ))}
          <Space>
            <Button onClick={() => apply({})}>{t('buttons.clear')}</Button>
            <Button type="primary" htmlType="submit">
              {t('buttons.filter')}
            </Button>
          </Space>
        </Form>
      </Drawer>
    </>
  );
}
