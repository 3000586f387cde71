import { useOne } from '@refinedev/core';
import { Alert, App, Button, Checkbox, Col, Form, Radio, Row, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { checkTimes } from '../../../domain/lessons';
import { RECURRING_LESSONS } from '../../../domain/resources/lessons';
import { formatDate, labelOf } from '../../engine/fields/format';
import { DeclaredFields, FieldFormItem, type InputContext } from '../../engine/fields/input';
import { conflictsOf, LessonConflicts } from '../../components/lesson-conflicts';
import { offerStaleChoice } from '../../engine/form/stale';
import { useDrawerGuard, useGuardChanges } from '../../engine/mode-drawer';
import type { ProviderError } from '../../providers/dataProvider';
import { fieldProblems, providerError, useRefreshLessons, useSeriesCommand } from './api';
import { SERIES_SHARED } from './lesson-form';
import { changedValues } from '../../engine/form/form-values';
import { fieldLabel, lessonField, RULE_FIELDS, RuleFields, RulePreview, usedRuleFields, WHO_WHERE, type RuleValues } from './recurrence-fields';
import type { LessonConflict, RecurringLesson } from './types';
import { useT } from '../../providers/i18nProvider';

type Values = Record<string, unknown> & RuleValues & { scope?: 'all' | 'following'; from_date?: string; include_changed?: boolean };

/**
 * bulk_update: edit a series (`?mode=bulk_update&recurring_lesson=<id>`): its schedule and rule,
 * for all its lessons or those from a date on, leaving lessons changed on their own alone
 * unless asked. A rule change re-creates the lessons in scope.
 */
export function SeriesForm({ id, onDone }: { id: number; onDone(): void }) {
  const [reload, setReload] = useState(0);
  const { result: row, query } = useOne<RecurringLesson, ProviderError>({ resource: 'recurring-lessons', id });
  if (query.isLoading) return <Spin />;
  // once loaded, a failed refetch leaves the form (and what is typed in it) in place
  if (!row) return <Alert type="error" message={providerError(query.error).message} />;
  // Keyed by an explicit reload only: the series fetched again must not wipe what is being
  // typed; a stale save offers the choice instead.
  return (
    <SeriesFormBody key={reload} row={row} onDone={onDone} onReload={() => setReload((n) => n + 1)} fresh={async () => (await query.refetch()).data?.data} />
  );
}

function SeriesFormBody({
  row: loaded,
  onDone,
  onReload,
  fresh,
}: {
  row: RecurringLesson;
  onDone(): void;
  /** Starts the form again from the series as stored now (after `fresh`). */
  onReload(): void;
  /** The series as stored now. */
  fresh(): Promise<RecurringLesson | undefined>;
}) {
  const { t } = useT();
  const { message, modal } = App.useApp();
  const refresh = useRefreshLessons();
  const { send, saving } = useSeriesCommand();
  // The version the form edits: the one it opened with, until a stale save's "keep mine" moves
  // it on to the stored one.
  const [row, setRow] = useState(loaded);
  const [form] = Form.useForm<Values>();
  // closing the drawer with changes asks first (Esc, ×, Cancel)
  useGuardChanges(() => form.isFieldsTouched());
  const guard = useDrawerGuard();
  const [problem, setProblem] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<LessonConflict[] | null>(null);
  const today = dayjs().format('YYYY-MM-DD');
  const initial: Values = { ...loaded, scope: 'all', from_date: today < loaded.start_date ? loaded.start_date : today, include_changed: false };
  const values = (Form.useWatch([], { form, preserve: true }) as Values | undefined) ?? initial;
  const ctx: InputContext = { t, mode: 'update', record: row };

  /** Sends the form's values as changes to `against` (the series as the form knows it). */
  const submit = async (against: RecurringLesson = row) => {
    const all = form.getFieldsValue(true) as Values;
    const times = checkTimes(all.start_time, all.end_time);
    if (times.end_time) {
      form.setFields([{ name: 'end_time', errors: [t(`fields.${times.end_time}`)] }]);
      return;
    }
    const used = usedRuleFields(all);
    // the rule's unused fields go back to null, so a changed repeat is a clean rule
    const rule = Object.fromEntries(RULE_FIELDS.map((n) => [n, used.includes(n) ? all[n] : null]));
    const changed = { ...changedValues(all, against, SERIES_SHARED), ...changedValues(rule, against, RULE_FIELDS) };
    if (!Object.keys(changed).length) return onDone();
    setProblem(null);
    setConflicts(null);
    try {
      const answer = await send(against.id, {
        ...changed,
        version: against.version,
        scope: all.scope,
        ...(all.scope === 'following' ? { from_date: all.from_date } : {}),
        include_changed: Boolean(all.include_changed),
      });
      message.success(t('lessons.seriesSaved', { count: answer.lesson_ids.length }));
      await refresh();
      onDone();
    } catch (error) {
      const failure = providerError(error);
      const lessons = conflictsOf(failure);
      if (lessons) setConflicts(lessons);
      else if (failure.code === 'stale') offerStale();
      else {
        const fields = fieldProblems(failure);
        if (fields.length) form.setFields(fields.map(([name, text]) => ({ name, errors: [text] })));
        setProblem(failure.message);
      }
    }
  };

  /** Someone else saved the series first: keep what was typed, and offer keep mine / load theirs / compare. */
  const offerStale = () => {
    const mine = Object.fromEntries([...SERIES_SHARED, ...RULE_FIELDS].map((name) => [name, form.getFieldValue(name) as unknown]));
    offerStaleChoice(modal, {
      mine,
      theirs: async () => (await fresh()) ?? ({} as RecurringLesson),
      labelOf: (name) => fieldLabel(t, RECURRING_LESSONS, name),
      keepMine: (theirs) => {
        setRow(theirs);
        void submit(theirs);
      },
      loadTheirs: onReload,
    });
  };

  const item = (name: string) => (
    <FieldFormItem field={lessonField(RECURRING_LESSONS, name)} label={labelOf(t, RECURRING_LESSONS, lessonField(RECURRING_LESSONS, name))} ctx={ctx} />
  );
  return (
    <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={() => void submit()}>
      {row.lesson_count !== undefined && (
        <Typography.Paragraph type="secondary">
          {t('lessons.seriesSummary', { count: row.lesson_count, first: formatDate(row.first_date), last: formatDate(row.last_date) })}
        </Typography.Paragraph>
      )}
      <Row gutter={12}>
        <Col span={12}>{item('start_time')}</Col>
        <Col span={12}>{item('end_time')}</Col>
      </Row>
      <DeclaredFields def={RECURRING_LESSONS} names={WHO_WHERE} ctx={ctx} />
      {item('notes')}
      <RuleFields form={form} ctx={{ ...ctx, record: undefined }} withStartDate />
      <RulePreview values={values} />
      <Form.Item name="scope" label={t('lessons.scope.title')}>
        <Radio.Group>
          <Space direction="vertical">
            <Radio value="all">{t('lessons.scope.all')}</Radio>
            <Radio value="following">{t('lessons.scope.fromDate')}</Radio>
          </Space>
        </Radio.Group>
      </Form.Item>
      {values.scope === 'following' && <FieldFormItem field={{ name: 'from_date', type: 'DATE', required: true }} label={t('lessons.scope.from')} ctx={ctx} />}
      <Form.Item name="include_changed" valuePropName="checked">
        <Checkbox>{t('lessons.scope.includeChanged')}</Checkbox>
      </Form.Item>
      {problem && <Alert type="error" showIcon message={problem} style={{ marginBottom: 16 }} />}
      {conflicts && <LessonConflicts lessons={conflicts} series />}
      <Space>
        <Button onClick={() => (guard ? guard.requestClose(onDone) : onDone())}>{t('buttons.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('buttons.save')}
        </Button>
      </Space>
    </Form>
  );
}
