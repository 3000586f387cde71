import { Alert, Space, Statistic, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ATTENDANCE_STATUSES, type AttendanceStatus } from '../../../domain/enums';
import { formatDate } from '../../engine/fields/format';
import { DateRangePresets, presetRange, type DateRange } from '../../engine/list/date-range-presets';
import { toProviderError } from '../../providers/dataProvider';
import { type AttendanceRow, useAttendanceList, useAttendanceRates } from './api';

type AttendanceOwner = 'student_id' | 'class_id';

export const STATUS_COLOR: Record<AttendanceStatus, string> = { PRESENT: 'green', ABSENT: 'red', LATE: 'orange', EXCUSED: 'blue' };
const PAGE = 20;
const PERCENT = new Intl.NumberFormat('el-GR', { style: 'percent', maximumFractionDigits: 1 });
export const percent = (rate: number) => PERCENT.format(rate);

/** The Attendance tab of a student or a class: the rate and the marks over a date range (this month by default). */
export function AttendanceTab({ field, id }: { field: AttendanceOwner; id: number }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<DateRange | null>(() => presetRange('thisMonth'));
  const [page, setPage] = useState(1);
  const query = {
    [field]: id,
    from: range?.[0].format('YYYY-MM-DD'),
    to: range?.[1].format('YYYY-MM-DD'),
  };
  const list = useAttendanceList({ ...query, start: (page - 1) * PAGE, end: page * PAGE });
  const rates = useAttendanceRates(query).result.data?.data;
  const rows = list.result.data?.data ?? [];
  const total = list.result.data?.total ?? 0;

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="attendance-tab">
      <Space wrap align="center">
        <Typography.Text>{t('attendance.range')}</Typography.Text>
        <DateRangePresets
          value={range}
          onChange={(next) => {
            setRange(next);
            setPage(1);
          }}
        />
      </Space>
      {rates && (
        <Space wrap size="large">
          <Statistic title={t('attendance.rate')} value={rates.rate === null ? t('attendance.noRate') : percent(rates.rate)} />
          {ATTENDANCE_STATUSES.map((status) => (
            <Statistic key={status} title={t(`attendance.statuses.${status}`)} value={rates.counts[status]} />
          ))}
        </Space>
      )}
      {list.query.isError && <Alert type="error" showIcon message={toProviderError(list.query.error).message} />}
      <Table<AttendanceRow>
        rowKey="id"
        size="small"
        loading={list.query.isFetching}
        dataSource={rows}
        scroll={{ x: true }}
        pagination={{
          current: page,
          pageSize: PAGE,
          total,
          showSizeChanger: false,
          onChange: setPage,
          showTotal: (count) => t('attendance.marks', { count }),
        }}
        columns={[
          {
            key: 'date',
            title: t('attendance.date'),
            render: (_, row) => (
              <Link
                to={`/?mode=view&lesson=${row.lesson_id}&tab=attendance`}
              >{`${dayjs(row.date).format('ddd')} ${formatDate(row.date)} ${row.start_time}`}</Link>
            ),
          },
          ...(field === 'class_id'
            ? [{ key: 'student', title: t('attendance.student'), render: (_: unknown, row: AttendanceRow) => row.student.name ?? `#${row.student_id}` }]
            : []),
          {
            key: 'lesson',
            title: t('attendance.lesson'),
            render: (_, row) => [row.subject?.name, field === 'student_id' ? row.class?.name : null].filter(Boolean).join(' · ') || '—',
          },
          {
            key: 'status',
            title: t('attendance.status'),
            render: (_, row) => <Tag color={STATUS_COLOR[row.status]}>{t(`attendance.statuses.${row.status}`)}</Tag>,
          },
          { key: 'note', title: t('attendance.note'), render: (_, row) => row.note ?? '' },
        ]}
      />
    </Space>
  );
}
