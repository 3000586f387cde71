import { Alert, Button, Space, Typography } from 'antd';
import type { LessonConflict } from '../../domain/lessons';
import type { ApiErrorBody } from '../providers/http';
import { formatDate } from '../engine/fields/format';
import { useT, type Translate } from '../providers/i18nProvider';

/**
 * The lessons in the way of a 409 `conflict` answer, or null when the error is something else.
 * Reads the server's answer that the data provider's errors carry in `body`.
 */
export function conflictsOf(error: unknown): LessonConflict[] | null {
  if (typeof error !== 'object' || error === null) return null;
  const body = (error as { body?: ApiErrorBody }).body;
  if (body?.error?.code !== 'conflict') return null;
  const lessons = body.error.details?.lessons;
  return Array.isArray(lessons) ? lessons : null;
}

function ConflictLine({ lesson, t, showDate }: { lesson: LessonConflict; t: Translate; showDate: boolean }) {
  const what = [lesson.subject?.name, lesson.class?.name].filter(Boolean).join(' — ');
  const clashes = lesson.clashes.map((c) => t(`lessons.conflicts.${c}`)).join(', ');
  const parts = [
    showDate ? formatDate(lesson.date) : null,
    `${lesson.start_time}–${lesson.end_time}`,
    what || null,
    lesson.teacher?.name ?? null,
    lesson.room?.name ?? null,
  ].filter(Boolean);
  return (
    <li data-conflict-id={lesson.id}>
      {parts.join(' · ')}
      {clashes && <Typography.Text type="danger"> ({t('lessons.conflicts.same', { what: clashes })})</Typography.Text>}
    </li>
  );
}

interface Props {
  lessons: readonly LessonConflict[];
  /** A series: grouped by date, with "create without these dates". */
  series?: boolean;
  onSkipDates?(dates: string[]): void;
  skipLabel?: string;
}

/**
 * The answer of docs/rules.md, Conflicts, shown the same way everywhere: each lesson in the way (date, time,
 * subject/class, teacher, room) and which of room, teacher or class it already holds.
 */
export function LessonConflicts({ lessons, series, onSkipDates, skipLabel }: Props) {
  const { t } = useT();
  const dates = [...new Set(lessons.map((l) => l.date))].sort();
  const byDate = dates.map((date) => ({ date, lessons: lessons.filter((l) => l.date === date) }));
  return (
    <Alert
      type="error"
      showIcon
      data-testid="lesson-conflicts"
      style={{ marginBottom: 16 }}
      message={series ? t('lessons.conflicts.seriesTitle', { count: dates.length }) : t('lessons.conflicts.title')}
      description={
        <Space direction="vertical" style={{ width: '100%' }}>
          {series ? (
            byDate.map((group) => (
              <div key={group.date}>
                <Typography.Text strong>{formatDate(group.date)}</Typography.Text>
                <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                  {group.lessons.map((l) => (
                    <ConflictLine key={`${l.id}-${group.date}`} lesson={l} t={t} showDate={false} />
                  ))}
                </ul>
              </div>
            ))
          ) : (
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {lessons.map((l) => (
                <ConflictLine key={l.id} lesson={l} t={t} showDate />
              ))}
            </ul>
          )}
          {series && onSkipDates && (
            <Button danger onClick={() => onSkipDates(dates)}>
              {skipLabel ?? t('lessons.conflicts.skipDates', { count: dates.length })}
            </Button>
          )}
        </Space>
      }
    />
  );
}
