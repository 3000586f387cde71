import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Card, Segmented, Space, Spin, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDate } from '../../engine/fields/format';
import { monthLabel } from '../../resources/money/types';
import { dayText, LessonList } from './lesson-list';
import { ChildScreen, LoadError, type PortalChild, type PortalLesson, usePortal } from './portal-data';

type View = 'week' | 'month';

/** The Monday of `day`'s week. */
const mondayOf = (day: Dayjs) => day.startOf('day').subtract((day.day() + 6) % 7, 'day');

function rangeOf(view: View, anchor: Dayjs): [Dayjs, Dayjs] {
  if (view === 'month') return [anchor.startOf('month'), anchor.endOf('month').startOf('day')];
  const monday = mondayOf(anchor);
  return [monday, monday.add(6, 'day')];
}

/** One child's lessons of the week or month, day by day. */
function ChildTimetable({ child, view, from, to }: { child: PortalChild; view: View; from: Dayjs; to: Dayjs }) {
  const { t } = useTranslation();
  const { data, loading, error } = usePortal<PortalLesson[]>(`/api/portal/children/${child.id}/lessons`, {
    from: from.format('YYYY-MM-DD'),
    to: to.format('YYYY-MM-DD'),
  });
  if (loading) return <Spin />;
  if (error) return <LoadError error={error} />;
  const days = new Map<string, PortalLesson[]>();
  for (const lesson of data ?? []) days.set(lesson.date, [...(days.get(lesson.date) ?? []), lesson]);
  if (days.size === 0)
    return <Typography.Text data-testid="timetable-empty">{t(view === 'week' ? 'portal.timetable.noneWeek' : 'portal.timetable.noneMonth')}</Typography.Text>;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="timetable">
      {[...days.entries()].map(([date, lessons]) => (
        <Card key={date} size="small" title={<h2 style={{ fontSize: 'inherit', margin: 0 }}>{dayText(date)}</h2>}>
          <LessonList lessons={lessons} withDate={false} homework empty="" />
        </Card>
      ))}
    </Space>
  );
}

/** /portal/timetable/: the chosen child's lessons, a week or a month at a time. */
export default function PortalTimetable() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'month' ? 'month' : 'week';
  const picked = dayjs(params.get('date') ?? '', 'YYYY-MM-DD', true);
  const anchor = picked.isValid() ? picked : dayjs();
  const [from, to] = rangeOf(view, anchor);
  const set = (changes: Record<string, string>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) next.set(key, value);
      return next;
    });
  const move = (step: number) => set({ date: anchor.add(step, view).format('YYYY-MM-DD') });
  const heading =
    view === 'month'
      ? monthLabel(anchor.format('YYYY-MM'), i18n.language)
      : `${formatDate(from.format('YYYY-MM-DD'))} – ${formatDate(to.format('YYYY-MM-DD'))}`;

  return (
    <ChildScreen
      title={t('portal.timetable.title')}
      extra={
        <Space direction="vertical" style={{ width: '100%' }}>
          <Segmented
            aria-label={t('portal.timetable.view')}
            value={view}
            onChange={(value) => set({ view: String(value) })}
            options={[
              { value: 'week', label: t('portal.timetable.week') },
              { value: 'month', label: t('portal.timetable.month') },
            ]}
          />
          <Space wrap>
            <Button icon={<LeftOutlined />} aria-label={t(`portal.timetable.previous.${view}`)} onClick={() => move(-1)} />
            <Button onClick={() => set({ date: dayjs().format('YYYY-MM-DD') })}>{t('portal.timetable.today')}</Button>
            <Button icon={<RightOutlined />} aria-label={t(`portal.timetable.next.${view}`)} onClick={() => move(1)} />
            <Typography.Text strong aria-live="polite" data-testid="timetable-range">
              {heading}
            </Typography.Text>
          </Space>
        </Space>
      }
      render={(child) => <ChildTimetable key={child.id} child={child} view={view} from={from} to={to} />}
    />
  );
}
