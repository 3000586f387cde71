import type { CrudFilter } from '@refinedev/core';
import { Segmented, Space } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { formatDate, type RefLabel } from '../../engine/fields/format';
import { RelatedRows } from '../../engine/view/related-rows';
import { LessonStatusTags } from './status';
import type { Lesson, RecurringLesson } from './types';
import { useT } from '../../providers/i18nProvider';

/** The lessons' field that names the row a tab belongs to. */
export type Owner = 'teacher_id' | 'class_id' | 'student_id';
/**
 * The Lessons tab of a teacher's, class's or student's view (a student's lessons are those of
 * the classes the student is in): upcoming first, or the past newest first.
 */
export function LessonsTab({ field, id }: { field: Owner; id: number }) {
  const { t } = useT();
  const [when, setWhen] = useState<'upcoming' | 'past'>('upcoming');
  const today = dayjs().format('YYYY-MM-DD');
  const filters: CrudFilter[] = [
    { field, operator: 'in', value: [id] },
    when === 'upcoming'
      ? { field: 'date', operator: 'gte', value: today }
      : { field: 'date', operator: 'lte', value: dayjs().subtract(1, 'day').format('YYYY-MM-DD') },
  ];
  const order = when === 'upcoming' ? 'asc' : 'desc';
  // The columns name what the owner does not: a teacher's lessons show the class, a class's the teacher, a student's both.
  const others = field === 'teacher_id' ? (['class'] as const) : field === 'class_id' ? (['teacher'] as const) : (['class', 'teacher'] as const);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Segmented
        value={when}
        onChange={(v) => setWhen(v as 'upcoming' | 'past')}
        options={[
          { value: 'upcoming', label: t('lessons.tabs.upcoming') },
          { value: 'past', label: t('lessons.tabs.past') },
        ]}
      />
      {/* keyed by the choice: the other half of the lessons starts at its first page */}
      <RelatedRows<Lesson>
        key={when}
        resource="lessons"
        filters={filters}
        sort={[
          { field: 'date', order },
          { field: 'start_time', order },
        ]}
        linkOf={(row) => `/lessons/?mode=view&lesson=${row.id}`}
        columns={[
          { key: 'date', title: t('lessons.fields.date'), render: (_, r) => formatDate(r.date) },
          { key: 'time', title: t('lessons.fields.time'), render: (_, r) => `${r.start_time}–${r.end_time}` },
          { key: 'subject', title: t('lessons.fields.subject_id'), render: (_, r) => r.subject?.name },
          ...others.map((other) => ({
            key: other,
            title: t(`lessons.fields.${other}_id`),
            render: (_: unknown, r: Lesson) => (r[other] as RefLabel | null)?.name,
          })),
          { key: 'room', title: t('lessons.fields.room_id'), render: (_, r) => r.room?.name },
          { key: 'status', title: t('lessons.fields.status'), render: (_, r) => <LessonStatusTags lesson={r} t={t} /> },
        ]}
      />
    </Space>
  );
}

/** The Recurring Lessons tab: the series of this teacher or class, newest first. */
export function SeriesTab({ field, id }: { field: Owner; id: number }) {
  const { t } = useT();
  return (
    <RelatedRows<RecurringLesson>
      resource="recurring-lessons"
      filters={[{ field, operator: 'in', value: [id] }]}
      sort={[{ field: 'start_date', order: 'desc' }]}
      linkOf={(row) => `/lessons/?list=recurring&mode=bulk_update&recurring_lesson=${row.id}`}
      columns={[
        { key: 'repeat', title: t('recurring-lessons.fields.repeat'), render: (_, r) => t(`enums.${r.repeat}`) },
        { key: 'weekdays', title: t('recurring-lessons.fields.weekdays'), render: (_, r) => (r.weekdays ?? []).map((d) => t(`weekdays.${d}`)).join(', ') },
        { key: 'time', title: t('lessons.fields.time'), render: (_, r) => `${r.start_time}–${r.end_time}` },
        { key: 'subject', title: t('lessons.fields.subject_id'), render: (_, r) => (r.subject as RefLabel | null)?.name },
        { key: 'first', title: t('recurring-lessons.fields.first_date'), render: (_, r) => formatDate(r.first_date) },
        { key: 'last', title: t('recurring-lessons.fields.last_date'), render: (_, r) => formatDate(r.last_date) },
        { key: 'count', title: t('recurring-lessons.fields.lesson_count'), dataIndex: 'lesson_count' },
      ]}
    />
  );
}
