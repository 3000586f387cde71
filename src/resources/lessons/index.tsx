import { CheckSquareOutlined, EditOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Segmented, Space, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { LESSONS, RECURRING_LESSONS } from '../../../domain/resources/lessons';
import { formatDate } from '../../engine/fields/format';
import { ResourceScreen, type Row } from '../../engine/resource-screen';
import { LessonFilterDrawer } from './filter-drawer';
import { LessonDrawers, useLessonParams } from './lesson-drawers';
import { keepsAllLessons, LessonStatusTags, lessonRights, lessonTitle, useRole } from './status';
import type { Lesson } from './types';
import { useT } from '../../providers/i18nProvider';

const MODES = ['create', 'update', 'view', 'filter', 'bulk_update'] as const;
const time = (row: Row) => `${String(row.start_time ?? '')}–${String(row.end_time ?? '')}`;

/** A row of the generic screen is a lesson here: the screen lists /api/lessons. */
const lessonOf = (row: Row) => row as Row & Lesson;

/**
 * /lessons/: the lessons (server-side paging, sorting and filters, quick date ranges) and the
 * recurring series, with the modes create, update, view, filter and bulk_update.
 */
export default function LessonsPage() {
  const { t } = useT();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { nav } = useLessonParams(MODES);
  const recurring = params.get('list') === 'recurring';
  // the list opens at today's lessons and what follows, not at the oldest (the date filter clears it)
  const [fromToday] = useState(() => [{ field: 'date', operator: 'gte' as const, value: dayjs().format('YYYY-MM-DD') }]);
  const role = useRole();
  const staff = keepsAllLessons(role);

  const header = (
    <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 12, marginBottom: 16 }}>
      <Segmented
        value={recurring ? 'recurring' : 'lessons'}
        // each list keeps its own sort, filters and page: start the other one clean
        onChange={(key) => setParams(new URLSearchParams(key === 'recurring' ? { list: 'recurring' } : {}))}
        options={[
          { value: 'lessons', label: t('lessons.tabs.lessons') },
          { value: 'recurring', label: t('lessons.tabs.recurring') },
        ]}
      />
      <Button icon={<SettingOutlined />} onClick={() => navigate('/lessons/settings')}>
        {t('lessons.settings')}
      </Button>
    </div>
  );
  const drawers = <LessonDrawers modes={MODES} />;

  if (recurring) {
    return (
      <ResourceScreen
        key="recurring"
        def={RECURRING_LESSONS}
        entity="recurring_lesson"
        modes={[]}
        title="lessons.title"
        header={header}
        drawers={drawers}
        listFields={[
          'start_date',
          'start_time',
          'teacher_id',
          'subject_id',
          'class_id',
          'room_id',
          'repeat',
          'weekdays',
          'first_date',
          'last_date',
          'lesson_count',
        ]}
        columns={{ start_time: { title: t('lessons.fields.time'), render: time } }}
        rowName={(row) => `${formatDate(String(row.start_date))} ${time(row)}`}
        canCreate={false}
        remove={{ can: () => staff, confirm: () => t('lessons.confirmDeleteSeries') }}
        rowActions={(row) =>
          staff ? (
            <Tooltip title={t('lessons.editSeries')}>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('lessons.editSeries')}
                onClick={() => nav.go({ mode: 'bulk_update', recurring_lesson: String(row.id) })}
              />
            </Tooltip>
          ) : null
        }
      />
    );
  }
  return (
    <ResourceScreen
      key="lessons"
      def={LESSONS}
      entity="lesson"
      modes={['create', 'update', 'view']}
      header={header}
      drawers={drawers}
      listFields={['date', 'start_time', 'teacher_id', 'subject_id', 'class_id', 'room_id', 'lesson_type_id', 'status', 'tag_ids']}
      columns={{
        start_time: { title: t('lessons.fields.time'), render: time },
        status: {
          render: (row) => (
            <Space size={0}>
              <LessonStatusTags lesson={lessonOf(row)} t={t} />
            </Space>
          ),
        },
      }}
      rowName={(row) => `${formatDate(String(row.date))} ${time(row)} ${lessonTitle(lessonOf(row), t)}`}
      canCreate={staff}
      canEdit={(row) => lessonRights(lessonOf(row), role).edit}
      remove={{ can: (row) => lessonRights(lessonOf(row), role).delete, done: () => t('lessons.deleted'), confirm: () => t('lessons.confirmDelete') }}
      rowActions={(row) => (
        <Tooltip title={t('attendance.open')}>
          <Button size="small" icon={<CheckSquareOutlined />} aria-label={t('attendance.open')} onClick={() => nav.attendance(Number(row.id))} />
        </Tooltip>
      )}
      toolbar={(state) => <LessonFilterDrawer state={state} />}
      initialFilters={fromToday}
    />
  );
}
