import { DeleteOutlined, EditOutlined, RollbackOutlined, StopOutlined, SwapOutlined, WarningOutlined } from '@ant-design/icons';
import { useDelete, useOne, useUpdate } from '@refinedev/core';
import { Alert, App, Button, Descriptions, Form, Input, Popconfirm, Space, Spin, Tabs, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { FieldDisplay } from '../../engine/fields/display';
import { formatDate } from '../../engine/fields/format';
import { HistoryTab } from '../../engine/view/history-tab';
import { conflictsOf, LessonConflicts } from '../../components/lesson-conflicts';
import { offerReload } from '../../engine/form/stale';
import type { ProviderError } from '../../providers/dataProvider';
import { providerError, QUIET, useRefreshLessons } from './api';
import { LESSON_DEF, lessonField } from './recurrence-fields';
import { lessonRights, LessonStatusTags, lessonTitle, useRole } from './status';
import type { Lesson, LessonConflict } from './types';
import { AttendanceRoster } from '../attendance/roster';
import { SectionTitle } from '../../components/headings';
import { useT } from '../../providers/i18nProvider';

export interface LessonNavigation {
  view(id: number): void;
  edit(id: number): void;
  replace(id: number): void;
  /** Where a series is edited (bulk_update on /lessons/). */
  seriesLink(id: number): string;
  close(): void;
}

/** The view drawer of a lesson: details, the actions its status and the role allow, attendance, history. */
export function LessonView({ id, nav, tab }: { id: number; nav: LessonNavigation; tab?: string | null }) {
  const { t } = useT();
  const { result: lesson, query } = useOne<Lesson, ProviderError>({ resource: 'lessons', id });
  if (query.isLoading) return <Spin />;
  if (query.isError || !lesson) return <Alert type="error" message={providerError(query.error).message} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="lesson-view" data-lesson-id={lesson.id}>
      <SectionTitle size={4} style={{ margin: 0 }}>
        {lessonTitle(lesson, t)}
      </SectionTitle>
      <Space size={4} wrap>
        <LessonStatusTags lesson={lesson} t={t} />
      </Space>
      <Tabs
        defaultActiveKey={tab === 'attendance' ? 'attendance' : 'details'}
        items={[
          { key: 'details', label: t('directory.tabs.details'), children: <Details lesson={lesson} nav={nav} onReload={() => void query.refetch()} /> },
          // The lesson's teacher (a TEACHER sees only her own lessons) and the office mark attendance.
          { key: 'attendance', label: t('attendance.title'), children: <AttendanceRoster lessonId={lesson.id} /> },
          { key: 'history', label: t('directory.tabs.history'), children: <HistoryTab def={LESSON_DEF} id={lesson.id} /> },
        ]}
      />
    </Space>
  );
}

function Details({ lesson, nav, onReload }: { lesson: Lesson; nav: LessonNavigation; onReload(): void }) {
  const { t } = useT();
  const { message, modal } = App.useApp();
  const refresh = useRefreshLessons();
  const { mutateAsync: update } = useUpdate<Lesson, ProviderError>();
  const { mutateAsync: remove } = useDelete<Lesson, ProviderError>();
  const [busy, setBusy] = useState(false);
  const [conflicts, setConflicts] = useState<LessonConflict[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // the homework or the notes, edited in place (a teacher edits both on her lessons)
  const [editing, setEditing] = useState<null | 'homework' | 'notes'>(null);
  const rights = lessonRights(lesson, useRole());

  const act = async (work: () => Promise<unknown>, success: string, after?: () => void) => {
    setBusy(true);
    setConflicts(null);
    setProblem(null);
    try {
      await work();
      message.success(success);
      await refresh();
      after?.();
    } catch (error) {
      const failure = providerError(error);
      const lessons = conflictsOf(failure);
      if (lessons) setConflicts(lessons);
      else if (!offerReload(modal, failure, onReload)) setProblem(failure.message);
    } finally {
      setBusy(false);
    }
  };
  const patch = (values: Partial<Lesson>) => update({ resource: 'lessons', id: lesson.id, values: { ...values, version: lesson.version }, ...QUIET });
  const setStatus = (status: Lesson['status']) => act(() => patch({ status }), t('lessons.statusChanged', { status: t(`enums.${status}`) }));

  const display = (name: string) => <FieldDisplay field={lessonField(LESSON_DEF, name)} row={lesson} variant="show" t={t} />;
  const rows: Array<[string, ReactNode]> = [
    [t('lessons.fields.date'), `${dayjs(lesson.date).format('dddd')} ${formatDate(lesson.date)}`],
    [t('lessons.fields.time'), `${lesson.start_time}–${lesson.end_time}`],
    [t('lessons.fields.teacher_id'), display('teacher_id')],
    [t('lessons.fields.subject_id'), display('subject_id')],
    [t('lessons.fields.class_id'), display('class_id')],
    [t('lessons.fields.room_id'), display('room_id')],
    [t('lessons.fields.lesson_type_id'), display('lesson_type_id')],
    [t('lessons.fields.tag_ids'), display('tag_ids')],
    [t('lessons.fields.homework'), display('homework')],
    [t('lessons.fields.notes'), display('notes')],
  ];
  if (lesson.replaces_lesson_id)
    rows.push([
      t('lessons.fields.replaces_lesson_id'),
      <Typography.Link key="replaces" onClick={() => nav.view(lesson.replaces_lesson_id!)}>
        {lesson.replaces_lesson?.name ?? `#${lesson.replaces_lesson_id}`}
      </Typography.Link>,
    ]);
  if (lesson.replaced_by)
    rows.push([
      t('lessons.fields.replaced_by'),
      <Typography.Link key="replaced-by" onClick={() => nav.view(lesson.replaced_by!)}>
        {t('lessons.openReplacement')}
      </Typography.Link>,
    ]);
  if (lesson.recurring_lesson_id)
    rows.push([
      t('lessons.fields.recurring_lesson_id'),
      rights.staff ? (
        <Link key="series" to={nav.seriesLink(lesson.recurring_lesson_id)}>
          {t('lessons.editSeries')}
        </Link>
      ) : (
        t('buttons.yes')
      ),
    ]);

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Descriptions column={1} size="small" bordered items={rows.map(([label, children], i) => ({ key: i, label, children }))} />
      {problem && <Alert type="error" showIcon message={problem} />}
      {conflicts && <LessonConflicts lessons={conflicts} />}
      <Space wrap>
        {rights.edit && (
          <Button icon={<EditOutlined />} onClick={() => nav.edit(lesson.id)}>
            {t('buttons.edit')}
          </Button>
        )}
        {rights.markToBeReplaced && (
          <Button icon={<WarningOutlined />} loading={busy} onClick={() => void setStatus('TO_BE_REPLACED')}>
            {t('lessons.actions.markToBeReplaced')}
          </Button>
        )}
        {rights.createReplacement && (
          <Button type="primary" icon={<SwapOutlined />} onClick={() => nav.replace(lesson.id)}>
            {t('lessons.actions.createReplacement')}
          </Button>
        )}
        {rights.cancel && (
          <Popconfirm
            title={t('lessons.confirmCancel')}
            okText={t('lessons.actions.cancel')}
            cancelText={t('buttons.no')}
            onConfirm={() => setStatus('CANCELED')}
          >
            <Button icon={<StopOutlined />} loading={busy}>
              {t('lessons.actions.cancel')}
            </Button>
          </Popconfirm>
        )}
        {rights.restore && (
          <Button icon={<RollbackOutlined />} loading={busy} onClick={() => void setStatus('NORMAL')}>
            {t('lessons.actions.restore')}
          </Button>
        )}
        {rights.editHomework && !editing && (
          <Button icon={<EditOutlined />} onClick={() => setEditing('homework')}>
            {t('lessons.actions.editHomework')}
          </Button>
        )}
        {rights.editHomework && !editing && (
          <Button icon={<EditOutlined />} onClick={() => setEditing('notes')}>
            {t('lessons.actions.editNotes')}
          </Button>
        )}
        {rights.delete && (
          <Popconfirm
            title={t('lessons.confirmDelete')}
            okText={t('buttons.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('buttons.cancel')}
            onConfirm={() => act(() => remove({ resource: 'lessons', id: lesson.id, ...QUIET }), t('lessons.deleted'), nav.close)}
          >
            <Button danger icon={<DeleteOutlined />} loading={busy}>
              {t('buttons.delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      {editing && (
        <Form
          key={editing}
          layout="vertical"
          initialValues={{ text: lesson[editing] ?? '' }}
          onFinish={(values: { text: string }) =>
            act(
              () => patch({ [editing]: values.text.trim() || null }),
              t(editing === 'homework' ? 'lessons.homeworkUpdated' : 'lessons.notesUpdated'),
              () => setEditing(null),
            )
          }
        >
          <Form.Item name="text" label={t(`lessons.fields.${editing}`)}>
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={5000} />
          </Form.Item>
          <Space>
            <Button onClick={() => setEditing(null)}>{t('buttons.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={busy}>
              {t('buttons.save')}
            </Button>
          </Space>
        </Form>
      )}
    </Space>
  );
}
