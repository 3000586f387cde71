import { FilterOutlined, PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useGetIdentity } from '@refinedev/core';
import { Badge, Button, Drawer, Grid, Space, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isOwnOnly } from '../../../domain/permissions';
import type { SessionUser } from '../../providers/session';
import { LessonDrawers, useLessonParams } from '../../resources/lessons/lesson-drawers';
import { CalendarFilterBar, useCalendarFilters } from './calendar-filters';
import { LessonCalendar } from './lesson-calendar';
import { ToBeReplaced } from './to-be-replaced';
import { ScreenTitle } from '../../components/headings';

const MODES = ['create', 'update', 'view'] as const;

/** The home route '/': the lesson calendar with its filters and drawers. */
export default function CalendarPage() {
  const { t } = useTranslation();
  const { data: user } = useGetIdentity<SessionUser>();
  // the office filters by teacher; a teacher sees only her own lessons (the matrix narrows her)
  const staff = user ? !isOwnOnly(user.role, 'lessons') : false;
  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.username : '';
  const [filters, setFilter] = useCalendarFilters();
  const { nav } = useLessonParams(MODES);
  const navigate = useNavigate();
  const onSlot = useCallback((slot: Record<string, string>) => nav.create(slot), [nav]);
  // on a phone the filters fold into a drawer: four selects would push the calendar off screen
  const folded = Grid.useBreakpoint().md === false;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const active = Object.values(filters).filter((ids) => ids?.length).length;
  const filterBar = <CalendarFilterBar filters={filters} onChange={setFilter} teacherFilter={staff} />;
  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 12, marginBottom: 12 }}>
        <div>
          <ScreenTitle style={{ margin: 0 }}>{t('calendar.title')}</ScreenTitle>
          <Typography.Text type="secondary">{t('calendar.welcome', { name })}</Typography.Text>
        </div>
        <Space wrap>
          {folded && (
            <Badge count={active} size="small">
              <Button icon={<FilterOutlined />} onClick={() => setFiltersOpen(true)} data-testid="calendar-filters-button">
                {t('lessons.filters.title')}
              </Button>
            </Badge>
          )}
          {staff && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => nav.create()}>
              {t('lessons.create')}
            </Button>
          )}
          <ToBeReplaced staff={staff} onView={nav.view} onReplace={nav.replace} />
          <Button icon={<UnorderedListOutlined />} onClick={() => navigate('/lessons/')}>
            {t('lessons.title')}
          </Button>
        </Space>
      </div>
      {folded ? (
        <Drawer open={filtersOpen} title={t('lessons.filters.title')} onClose={() => setFiltersOpen(false)} placement="bottom" height="auto">
          {filterBar}
        </Drawer>
      ) : (
        filterBar
      )}
      <LessonCalendar filters={filters} onOpen={nav.view} onSlot={onSlot} />
      <LessonDrawers modes={MODES} />
    </>
  );
}
