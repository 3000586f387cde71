import { List, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../engine/fields/format';
import type { PortalLesson } from './portal-data';

/** "Wed 09/12/2026", "Τετ 09/12/2026": the weekday's short name (dayjs's `ddd`, not its two-letter `dd`). */
export const dayText = (date: string) => `${dayjs(date).format('ddd')} ${formatDate(date)}`;

/**
 * Lessons as a list (a phone reads a list better than a grid): time, subject and class, the
 * teacher and room, a tag when cancelled or moved, and the homework when `homework` is on.
 */
export function LessonList({
  lessons,
  withDate = true,
  homework = false,
  empty,
}: {
  lessons: readonly PortalLesson[];
  withDate?: boolean;
  homework?: boolean;
  empty: string;
}) {
  const { t } = useTranslation();
  // said as text of the page's own colour: the list's own empty text is too faint to read
  if (lessons.length === 0) return <Typography.Paragraph type="secondary">{empty}</Typography.Paragraph>;
  return (
    <List<PortalLesson>
      size="small"
      dataSource={[...lessons]}
      renderItem={(lesson) => {
        const off = lesson.status === 'CANCELED' || lesson.status === 'REPLACED';
        return (
          <List.Item data-lesson-id={lesson.id}>
            <div style={{ width: '100%' }}>
              <Typography.Text strong delete={off}>
                {withDate ? `${dayText(lesson.date)}, ` : ''}
                {lesson.start_time}–{lesson.end_time}
              </Typography.Text>{' '}
              {lesson.status !== 'NORMAL' && <Tag color={off ? 'red' : 'orange'}>{t(`portal.lessonStatus.${lesson.status}`)}</Tag>}
              <div>{[lesson.subject, lesson.class_name].filter(Boolean).join(' · ') || t('lessons.noSubject')}</div>
              {(lesson.teacher || lesson.room) && (
                <Typography.Text type="secondary">{[lesson.teacher, lesson.room].filter(Boolean).join(' · ')}</Typography.Text>
              )}
              {homework && lesson.homework && (
                <div style={{ marginTop: 4, whiteSpace: 'pre-wrap' }}>
                  <Typography.Text type="secondary">{t('portal.homework')}: </Typography.Text>
                  {lesson.homework}
                </div>
              )}
            </div>
          </List.Item>
        );
      }}
    />
  );
}
