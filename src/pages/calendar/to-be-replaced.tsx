import { useList } from '@refinedev/core';
import { Button, Drawer, Empty, List, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, type Translate } from '../../components/fields/format';
import { lessonTitle } from '../../resources/lessons/status';
import type { Lesson } from '../../resources/lessons/types';

/** "To be replaced (N)": the lessons still waiting for a replacement, one click from the calendar. */
export function ToBeReplaced({ staff, onView, onReplace }: { staff: boolean; onView(id: number): void; onReplace(id: number): void }) {
  const { t: translate } = useTranslation();
  const t = translate as Translate;
  const [open, setOpen] = useState(false);
  const { result, query } = useList<Lesson>({
    resource: 'lessons',
    filters: [{ field: 'status', operator: 'eq', value: 'TO_BE_REPLACED' }],
    sorters: [
      { field: 'date', order: 'asc' },
      { field: 'start_time', order: 'asc' },
    ],
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
  });
  const total = result.total ?? 0;
  const go = (work: () => void) => {
    setOpen(false);
    work();
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} loading={query.isLoading} danger={total > 0} data-testid="to-be-replaced-button">
        {t('lessons.toBeReplaced.button', { count: total })}
      </Button>
      <Drawer open={open} title={t('lessons.toBeReplaced.title')} onClose={() => setOpen(false)} width={520}>
        {result.data.length === 0 ? (
          <Empty description={t('lessons.toBeReplaced.empty')} />
        ) : (
          <List
            dataSource={result.data}
            renderItem={(lesson) => (
              <List.Item
                key={lesson.id}
                data-lesson-id={lesson.id}
                actions={[
                  <Button key="view" size="small" onClick={() => go(() => onView(lesson.id))}>
                    {t('buttons.show')}
                  </Button>,
                  ...(staff
                    ? [
                        <Button key="replace" size="small" type="primary" onClick={() => go(() => onReplace(lesson.id))}>
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
        )}
        {total > result.data.length && (
          <Typography.Text type="secondary">{t('lessons.toBeReplaced.more', { count: total - result.data.length })}</Typography.Text>
        )}
      </Drawer>
    </>
  );
}
