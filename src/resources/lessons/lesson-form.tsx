import { useCreate, useOne, useUpdate } from '@refinedev/core';
import { Alert, App, Button, Col, Form, Input, Row, Space, Spin, Switch } from 'antd';
import { useMemo, useState } from 'react';
import { checkTimes, isoWeekday } from '../../../domain/lessons';
import { SCHEDULE_FIELDS } from '../../../domain/resources/lessons';
import { formatDate } from '../../engine/fields/format';
import { DeclaredFields, type InputContext } from '../../engine/fields/input';
import { changedValues, writtenValues } from '../../engine/form/form-values';
import { conflictsOf, LessonConflicts } from '../../components/lesson-conflicts';
import { offerStaleChoice } from '../../engine/form/stale';
import { useDrawerGuard, useGuardChanges } from '../../engine/mode-drawer';
import type { ProviderError } from '../../providers/dataProvider';
import { fieldProblems, providerError, QUIET, useRefreshLessons, useSeriesCommand } from './api';
import { fieldLabel, expansionOf, LESSON_DEF, RuleFields, RulePreview, usedRuleFields, WHO_WHERE, type RuleValues } from './recurrence-fields';
import { ScopeModal, type ScopeChoice } from './scope-modal';
import { lessonTitle } from './status';
import type { Lesson, LessonConflict, RecurringLesson } from './types';
import { useT } from '../../providers/i18nProvider';

type Values = Record<string, unknown> & RuleValues & { repeat_on?: boolean };

/** What a lesson form writes: its schedule, homework and notes. */
const LESSON_WRITABLE = ['date', 'start_time', 'end_time', ...WHO_WHERE, 'homework', 'notes'] as const;
/** What a series shares with its lessons (no date, no homework). */
export const SERIES_SHARED = ['start_time', 'end_time', ...WHO_WHERE, 'notes'] as const;
const SCHEDULE = new Set<string>(SCHEDULE_FIELDS);

interface LessonFormProps {
  mode: 'create' | 'update';
  /** The lesson edited (update) or replaced (create with a replacement). */
  lessonId?: number | null;
  replacement?: boolean;
  /** A selected calendar slot: date, times, room (with its label). */
  prefill?: Partial<Lesson>;
  onDone(): void;
}

/** The create / edit drawer's form: one lesson, a replacement, or (Repeat on) a whole series. */
export function LessonForm({ mode, lessonId, replacement, prefill, onDone }: LessonFormProps) {
  const [reload, setReload] = useState(0);
  const needsRow = (mode === 'update' || replacement) && lessonId != null;
  const { result: row, query } = useOne<Lesson, ProviderError>({ resource: 'lessons', id: lessonId ?? 0, queryOptions: { enabled: needsRow } });
  if (needsRow && query.isLoading) return <Spin />;
  // once loaded, a failed refetch leaves the form (and what is typed in it) in place
  if (needsRow && !row) return <Alert type="error" message={providerError(query.error).message} />;
  // Keyed by an explicit reload only: the lesson fetched again (news of a change, a refused
  // save) must not wipe what is being typed; a stale save offers the choice instead.
  return (
    <LessonFormBody
      key={reload}
      mode={mode}
      row={needsRow ? (row as Lesson) : undefined}
      replacement={Boolean(replacement)}
      prefill={prefill}
      onDone={onDone}
      onReload={() => setReload((n) => n + 1)}
      fresh={async () => (await query.refetch()).data?.data}
    />
  );
}

function initialValues(mode: 'create' | 'update', row: Lesson | undefined, replacement: boolean, prefill: Partial<Lesson> | undefined): Values {
  const rule: Values = { repeat_on: false, repeat: 'WEEKLY', repeat_every: 1, end_type: 'ON_DATE' };
  if (mode === 'update' && row) return { ...row };
  if (replacement && row) {
    // the replacement starts as a copy of the original: same who, where, when
    return { ...rule, ...Object.fromEntries(LESSON_WRITABLE.filter((n) => n !== 'homework').map((n) => [n, row[n]])) };
  }
  return { ...rule, ...prefill };
}

function LessonFormBody({
  mode,
  row: loaded,
  replacement,
  prefill,
  onDone,
  onReload,
  fresh,
}: {
  mode: 'create' | 'update';
  row?: Lesson;
  replacement: boolean;
  prefill?: Partial<Lesson>;
  onDone(): void;
  /** Starts the form again from the lesson as stored now (after `fresh`). */
  onReload(): void;
  /** The lesson as stored now (its version moves when its series is changed). */
  fresh(): Promise<Lesson | undefined>;
}) {
  const { t } = useT();
  const { message, modal } = App.useApp();
  const refresh = useRefreshLessons();
  // The version the form edits: the one it opened with, until a stale save's "keep mine" moves
  // it on to the stored one. A refetched lesson leaves it alone, so a save never passes over
  // someone else's change unasked.
  const [row, setRow] = useState(loaded);
  const { mutateAsync: create } = useCreate<Lesson, ProviderError>();
  const { mutateAsync: update } = useUpdate<Lesson, ProviderError>();
  const seriesCommand = useSeriesCommand();
  const seriesId = row?.recurring_lesson_id ?? null;
  // read when the change goes to the series: its version is the one to send
  const seriesRow = useOne<RecurringLesson, ProviderError>({ resource: 'recurring-lessons', id: seriesId ?? 0, queryOptions: { enabled: false } });
  const [form] = Form.useForm<Values>();
  // closing the drawer with changes asks first (Esc, ×, Cancel)
  useGuardChanges(() => form.isFieldsTouched());
  const guard = useDrawerGuard();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<{ lessons: LessonConflict[]; series: boolean } | null>(null);
  const [skipDates, setSkipDates] = useState<string[]>([]);
  const [askScope, setAskScope] = useState<{ changed: Record<string, unknown>; onlyThis: boolean } | null>(null);
  const initial = useMemo(() => initialValues(mode, loaded, replacement, prefill), [mode, loaded, replacement, prefill]);
  const values = (Form.useWatch([], { form, preserve: true }) as Values | undefined) ?? initial;
  const repeatOn = mode === 'create' && !replacement && Boolean(values.repeat_on);
  // labels of the references the form starts with (the select shows names, not ids)
  const known = useMemo(() => ({ ...(row ?? {}), ...(prefill ?? {}) }) as Record<string, unknown>, [row, prefill]);
  const ctx: InputContext = { t, mode, record: known };

  const done = async (text: string) => {
    message.success(text);
    await refresh();
    onDone();
  };

  const fail = (error: unknown, series: boolean) => {
    const lessons = conflictsOf(error);
    if (lessons) {
      setConflicts({ lessons, series });
      return;
    }
    const failure = providerError(error);
    if (failure.code === 'stale' && mode === 'update' && row) {
      offerStale();
      return;
    }
    const fields = fieldProblems(failure);
    if (fields.length) form.setFields(fields.map(([name, text]) => ({ name: name === 'start_date' ? 'date' : name, errors: [text] })));
    setProblem(failure.message);
  };

  const run = async (work: () => Promise<void>, series: boolean) => {
    setSaving(true);
    setProblem(null);
    setConflicts(null);
    try {
      await work();
    } catch (error) {
      fail(error, series);
    } finally {
      setSaving(false);
    }
  };

  const createOne = (all: Values) =>
    run(async () => {
      const body = writtenValues(all, LESSON_WRITABLE, true);
      if (replacement && row) body.replaces_lesson_id = row.id;
      await create({ resource: 'lessons', values: body, ...QUIET });
      await done(replacement ? t('lessons.replacementCreated') : t('lessons.created'));
    }, false);

  const createMany = (all: Values, skip: string[]) =>
    run(async () => {
      const rule = { ...all, start_date: all.date as string } as RuleValues;
      const body = {
        ...writtenValues(all, SERIES_SHARED, true),
        ...writtenValues(rule as Record<string, unknown>, usedRuleFields(rule), true),
        ...(skip.length ? { skip_dates: skip } : {}),
      };
      const answer = await seriesCommand.send(null, body);
      await done(t('lessons.seriesCreated', { count: answer.lesson_ids.length }));
    }, true);

  const updateThis = (changed: Record<string, unknown>, version = row!.version) =>
    run(async () => {
      await update({ resource: 'lessons', id: row!.id, values: { ...changed, version }, ...QUIET });
      await done(t('lessons.saved'));
    }, false);

  const updateSeries = (changed: Record<string, unknown>, choice: ScopeChoice) =>
    run(async () => {
      const series = (await seriesRow.query.refetch({ throwOnError: true })).data!.data;
      const shared = Object.fromEntries(Object.entries(changed).filter(([k]) => (SERIES_SHARED as readonly string[]).includes(k)));
      await seriesCommand.send(series.id, {
        ...shared,
        version: series.version,
        scope: choice.scope,
        ...(choice.scope === 'following' ? { from_date: row!.date } : {}),
        include_changed: choice.includeChanged,
      });
      const now = 'homework' in changed ? await fresh() : undefined;
      if (now) await update({ resource: 'lessons', id: row!.id, values: { homework: changed.homework, version: now.version }, ...QUIET });
      await done(t('lessons.saved'));
    }, true);

  /** Sends the form's values as changes to `against` (the lesson as the form knows it). */
  const submit = (raw: Values, against: Lesson | undefined = row) => {
    const all = { ...form.getFieldsValue(true), ...raw } as Values;
    const times = checkTimes(all.start_time, all.end_time);
    if (times.end_time) {
      form.setFields([{ name: 'end_time', errors: [t(`fields.${times.end_time}`)] }]);
      return;
    }
    if (mode === 'create') return repeatOn ? createMany(all, skipDates) : createOne(all);
    const changed = changedValues(all, against!, LESSON_WRITABLE);
    if (!Object.keys(changed).length) return onDone();
    const touchesSeries = Object.keys(changed).some((k) => (SCHEDULE.has(k) && k !== 'date') || k === 'notes');
    if (against!.recurring_lesson_id && touchesSeries) setAskScope({ changed, onlyThis: 'date' in changed });
    else void updateThis(changed, against!.version);
  };

  /** Someone else saved the lesson first: keep what was typed, and offer keep mine / load theirs / compare. */
  const offerStale = () => {
    const mine = Object.fromEntries(LESSON_WRITABLE.map((name) => [name, form.getFieldValue(name) as unknown]));
    offerStaleChoice(modal, {
      mine,
      theirs: async () => (await fresh()) ?? ({} as Lesson),
      labelOf: (name) => fieldLabel(t, LESSON_DEF, name),
      keepMine: (theirs) => {
        setRow(theirs);
        submit(form.getFieldsValue(true) as Values, theirs);
      },
      loadTheirs: onReload,
    });
  };

  const item = (...names: string[]) => <DeclaredFields def={LESSON_DEF} names={names} ctx={ctx} />;
  const expansion = repeatOn ? expansionOf({ ...values, start_date: values.date as string | undefined }) : null;

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={submit}
      onValuesChange={(changed: Values) => {
        // a weekly series starts on the lesson's weekday until the user picks others
        if (changed.repeat_on && !(form.getFieldValue('weekdays') as number[] | undefined)?.length && typeof form.getFieldValue('date') === 'string') {
          form.setFieldValue('weekdays', [isoWeekday(form.getFieldValue('date') as string)]);
        }
        if (skipDates.length && ('date' in changed || 'repeat' in changed)) setSkipDates([]);
      }}
    >
      {replacement && row && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('lessons.replacesInfo', { name: `${formatDate(row.date)} ${row.start_time}–${row.end_time} ${lessonTitle(row, t)}` })}
        />
      )}
      <Row gutter={12}>
        <Col span={10}>{item('date')}</Col>
        <Col span={7}>{item('start_time')}</Col>
        <Col span={7}>{item('end_time')}</Col>
      </Row>
      {item(...WHO_WHERE, ...(repeatOn ? [] : ['homework']), 'notes')}
      {mode === 'create' && !replacement && (
        <Form.Item name="repeat_on" label={t('lessons.repeat.label')} valuePropName="checked">
          <Switch />
        </Form.Item>
      )}
      {repeatOn && (
        <>
          <RuleFields form={form} ctx={{ ...ctx, record: undefined }} />
          <RulePreview
            values={{ ...values, start_date: values.date as string | undefined }}
            skipped={skipDates.filter((d) => expansion?.ok && expansion.dates.includes(d)).length}
          />
        </>
      )}
      <Form.Item name="version" hidden>
        <Input />
      </Form.Item>
      {problem && <Alert type="error" showIcon message={problem} style={{ marginBottom: 16 }} />}
      {conflicts && (
        <LessonConflicts
          lessons={conflicts.lessons}
          series={conflicts.series}
          onSkipDates={
            mode === 'create' && repeatOn
              ? (dates) => {
                  const skip = [...new Set([...skipDates, ...dates])];
                  setSkipDates(skip);
                  void createMany({ ...form.getFieldsValue(true), repeat_on: true } as Values, skip);
                }
              : undefined
          }
        />
      )}
      <Space>
        <Button onClick={() => (guard ? guard.requestClose(onDone) : onDone())}>{t('buttons.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('buttons.save')}
        </Button>
      </Space>
      <ScopeModal
        open={askScope !== null}
        onlyThis={askScope?.onlyThis}
        onCancel={() => setAskScope(null)}
        onOk={(choice) => {
          const changed = askScope!.changed;
          setAskScope(null);
          void (choice.scope === 'this' ? updateThis(changed) : updateSeries(changed, choice));
        }}
      />
    </Form>
  );
}
