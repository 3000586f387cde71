import { Alert, Form, Typography, type FormInstance } from 'antd';
import type { FieldDef, ResourceDef } from '../../../domain/fields';
import { expandRecurrence, type RecurrenceRule } from '../../../domain/lessons';
import { LESSONS, RECURRING_LESSONS } from '../../../domain/resources/lessons';
import { formatDate, labelOf } from '../../engine/fields/format';
import { FieldFormItem, type InputContext } from '../../engine/fields/input';
import { useT, type Translate } from '../../providers/i18nProvider';

const field = (def: ResourceDef, name: string): FieldDef => def.fields.find((f) => f.name === name)!;

/** Who, where and what of a lesson (the date and times are laid out by the form). */
export const WHO_WHERE = ['teacher_id', 'subject_id', 'class_id', 'room_id', 'lesson_type_id', 'tag_ids'] as const;

export const RULE_FIELDS = ['repeat', 'repeat_every', 'weekdays', 'start_date', 'end_type', 'occurrences', 'until_date', 'dates'] as const;

export interface RuleValues {
  repeat?: RecurrenceRule['repeat'];
  repeat_every?: number | null;
  weekdays?: number[] | null;
  start_date?: string | null;
  end_type?: RecurrenceRule['end_type'];
  occurrences?: number | null;
  until_date?: string | null;
  dates?: string[] | null;
}

/** The rule's fields a series of this `repeat` uses (the others are sent as null). */
export function usedRuleFields(values: RuleValues): string[] {
  if (values.repeat === 'CUSTOM') return ['repeat', 'start_date', 'dates'];
  const base = ['repeat', 'repeat_every', 'start_date', 'end_type', values.end_type === 'AFTER' ? 'occurrences' : 'until_date'];
  return values.repeat === 'WEEKLY' ? [...base, 'weekdays'] : base;
}

export function expansionOf(values: RuleValues) {
  if (!values.repeat || !values.start_date) return null;
  return expandRecurrence({
    repeat: values.repeat,
    repeat_every: values.repeat_every ?? 1,
    weekdays: values.weekdays ?? null,
    start_date: values.start_date,
    end_type: values.end_type ?? null,
    occurrences: values.occurrences ?? null,
    until_date: values.until_date ?? null,
    dates: values.dates ?? null,
  });
}

/** The live count of a series' dates (domain expandRecurrence), or why the rule is refused. */
export function RulePreview({ values, skipped = 0 }: { values: RuleValues; skipped?: number }) {
  const { t } = useT();
  const expansion = expansionOf(values);
  if (!expansion) return null;
  if (!expansion.ok) {
    const problems = Object.entries(expansion.fields).map(
      ([name, code]) => `${labelOf(t, RECURRING_LESSONS, field(RECURRING_LESSONS, name))}: ${t(`fields.${code}`, { defaultValue: code })}`,
    );
    return <Alert type="warning" showIcon data-testid="series-preview" message={problems.join(' · ')} style={{ marginBottom: 16 }} />;
  }
  const count = expansion.dates.length - skipped;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="series-preview"
      style={{ marginBottom: 16 }}
      message={t('lessons.repeat.preview', { count, first: formatDate(expansion.dates[0]), last: formatDate(expansion.dates.at(-1)) })}
    />
  );
}

/**
 * A series' rule: repeat, every N days or weeks, weekdays (WEEKLY), and the end (AFTER n or
 * ON_DATE), or the hand-picked dates (CUSTOM). `withStartDate` shows start_date (bulk_update);
 * a new series starts on the form's date.
 */
export function RuleFields({ form, ctx, withStartDate }: { form: FormInstance; ctx: InputContext; withStartDate?: boolean }) {
  const repeat = Form.useWatch('repeat', form) as RuleValues['repeat'];
  const endType = Form.useWatch('end_type', form) as RuleValues['end_type'];
  const t = ctx.t;
  const item = (name: string, required = false) => (
    <FieldFormItem
      key={name}
      field={field(RECURRING_LESSONS, name)}
      label={labelOf(t, RECURRING_LESSONS, field(RECURRING_LESSONS, name))}
      ctx={ctx}
      required={required}
    />
  );
  return (
    <>
      {item('repeat', true)}
      {withStartDate && item('start_date', true)}
      {repeat === 'CUSTOM' ? (
        item('dates', true)
      ) : (
        <>
          {item('repeat_every', true)}
          {repeat === 'WEEKLY' && item('weekdays')}
          {item('end_type', true)}
          {endType === 'AFTER' && item('occurrences', true)}
          {endType === 'ON_DATE' && item('until_date', true)}
        </>
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
        {t('lessons.repeat.hint')}
      </Typography.Paragraph>
    </>
  );
}

export { field as lessonField };

/** A lesson's or series' field by its label, or its name where the declaration has none (a stale save's comparison names any field). */
export function fieldLabel(t: Translate, def: ResourceDef, name: string): string {
  const found = def.fields.find((f) => f.name === name);
  return found ? labelOf(t, def, found) : name;
}
export const LESSON_DEF = LESSONS;
