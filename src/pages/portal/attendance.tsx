import { Space, Spin, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { PortalAttendanceAnswer } from '../../../domain/answers/portal';
import { ATTENDANCE_STATUSES } from '../../../domain/enums';
import { DateRangePresets, presetRange, type DateRange } from '../../engine/list/date-range-presets';
import { percent, STATUS_COLOR } from '../../resources/attendance/attendance-tab';
import { dayText } from './lesson-list';
import { ChildScreen, LoadError, type PortalChild, usePortal } from './portal-data';

type Attendance = z.infer<typeof PortalAttendanceAnswer>['data'];
type Mark = Attendance['marks'][number];

/** One child's marks over the range, with the rate and the count of each mark. */
function ChildAttendance({ child, range }: { child: PortalChild; range: DateRange }) {
  const { t } = useTranslation();
  const { data, loading, error } = usePortal<Attendance>(`/api/portal/children/${child.id}/attendance`, {
    from: range[0].format('YYYY-MM-DD'),
    to: range[1].format('YYYY-MM-DD'),
  });
  if (loading) return <Spin />;
  if (error) return <LoadError error={error} />;
  if (!data) return null;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="portal-attendance">
      <Space wrap size="large">
        <Statistic title={t('attendance.rate')} value={data.rate === null ? t('attendance.noRate') : percent(data.rate)} />
        {ATTENDANCE_STATUSES.map((status) => (
          <Statistic key={status} title={t(`attendance.statuses.${status}`)} value={data.counts[status]} />
        ))}
      </Space>
      <Table<Mark>
        rowKey="lesson_id"
        size="small"
        dataSource={data.marks}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: t('portal.attendance.none') }}
        columns={[
          { key: 'date', title: t('attendance.date'), render: (_, mark) => `${dayText(mark.date)} ${mark.start_time}` },
          { key: 'lesson', title: t('attendance.lesson'), render: (_, mark) => mark.subject ?? t('lessons.noSubject') },
          {
            key: 'status',
            title: t('attendance.status'),
            render: (_, mark) => <Tag color={STATUS_COLOR[mark.status]}>{t(`attendance.statuses.${mark.status}`)}</Tag>,
          },
        ]}
      />
    </Space>
  );
}

/** /portal/attendance/: the chosen child's attendance over a range (this month first), quick ranges at hand. */
export default function PortalAttendance() {
  const { t } = useTranslation();
  const [range, setRange] = useState<DateRange>(() => presetRange('thisMonth'));
  return (
    <ChildScreen
      title={t('portal.attendance.title')}
      extra={
        <Space wrap align="center">
          <Typography.Text>{t('attendance.range')}</Typography.Text>
          <DateRangePresets value={range} allowClear={false} onChange={(next) => next && setRange(next)} />
        </Space>
      }
      render={(child) => <ChildAttendance key={child.id} child={child} range={range} />}
    />
  );
}
