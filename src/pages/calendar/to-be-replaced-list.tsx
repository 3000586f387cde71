import { Button, Empty, List, Space, Typography } from 'antd';
import { formatDate } from '../../engine/fields/format';
import { lessonTitle } from '../../resources/lessons/status';
import type { Lesson } from '../../resources/lessons/types';
import { useT } from '../../providers/i18nProvider';

/** The lessons waiting for a replacement, in the calendar's "To be replaced" drawer. */
export default function ToBeReplacedList({
  lessons,
  staff,
  onView,
  onReplace,
}: {
  lessons: Lesson[];
  staff: boolean;
  onView(id: number): void;
  onReplace(id: number): void;
}) {
  const { t } = useT();
  return lessons.length === 0 ? (
    <Empty description={t('lessons.toBeReplaced.empty')} />
  ) : (
    <List
      dataSource={lessons}
      renderItem={(lesson) => (
        <List.Item
          key={lesson.id}
          data-lesson-id={lesson.id}
          actions={[
            <Button key="view" size="small" onClick={() => onView(lesson.id)}>
              {t('buttons.show')}
            </Button>,
            ...(staff
              ? [
                  <Button key="replace" size="small" type="primary" onClick={() => onReplace(lesson.id)}>
                    {t('lessons.actions.createReplacement')}
                  </Button>,
                ]
              : []),
          ]}
        >
          <Space direction="vertical" size={0}>
            <Typography.Text strong>{lessonTitle(lesson, t)}</Typography.Text>
            <Typography.Text type="secondary">
              {formatDate(lesson.date)} {lesson.start_time}–{lesson.end_time} · {[lesson.teacher?.name, lesson.room?.name].filter(Boolean).join(' · ')}
            </Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}
