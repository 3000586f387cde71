import { useList } from '@refinedev/core';
import { Button, Drawer, Spin, Typography } from 'antd';
import { Suspense, useState } from 'react';
import { lazyPart } from '../../lazy';
import type { Lesson } from '../../resources/lessons/types';
import { useT } from '../../providers/i18nProvider';

// The drawer's list (antd's List with its pagination) loads when the drawer first opens
// (antd draws a drawer's content only then).
const ToBeReplacedList = lazyPart(() => import('./to-be-replaced-list'));

/** "To be replaced (N)": the lessons still waiting for a replacement, one click from the calendar. */
export function ToBeReplaced({ staff, onView, onReplace }: { staff: boolean; onView(id: number): void; onReplace(id: number): void }) {
  const { t } = useT();
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
        <Suspense fallback={<Spin />}>
          <ToBeReplacedList lessons={result.data} staff={staff} onView={(id) => go(() => onView(id))} onReplace={(id) => go(() => onReplace(id))} />
        </Suspense>
        {total > result.data.length && (
          <Typography.Text type="secondary">{t('lessons.toBeReplaced.more', { count: total - result.data.length })}</Typography.Text>
        )}
      </Drawer>
    </>
  );
}
