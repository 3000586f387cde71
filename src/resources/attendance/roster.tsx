import { CheckOutlined } from '@ant-design/icons';
import { Alert, App, Button, Empty, Radio, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ATTENDANCE_STATUSES, type AttendanceStatus } from '../../../domain/enums';
import { toProviderError } from '../../providers/dataProvider';
import { useRoster, useSaveMarks } from './api';
import './roster.css';

/**
 * A lesson's roster: one row per student with the four marks as large buttons (one tap each,
 * thumb-sized on a phone), "all present" for the students not yet marked, and save. Marks
 * already saved show and can be changed.
 */
export function AttendanceRoster({ lessonId }: { lessonId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { result, query } = useRoster(lessonId);
  const roster = result.data?.data;
  const { save, saving } = useSaveMarks(lessonId);
  const [marks, setMarks] = useState<Record<number, AttendanceStatus>>({});
  const [problem, setProblem] = useState<string | null>(null);

  // The saved marks, whenever the roster (re)loads.
  const saved = useMemo(() => {
    const out: Record<number, AttendanceStatus> = {};
    for (const line of roster?.students ?? []) if (line.mark) out[line.student_id] = line.mark.status;
    return out;
  }, [roster]);
  useEffect(() => setMarks(saved), [saved]);

  if (query.isLoading) return <Spin />;
  if (query.isError || !roster) return <Alert type="error" showIcon message={toProviderError(query.error).message} />;
  if (!roster.students.length) return <Empty description={t('attendance.noStudents')} />;

  const unmarked = roster.students.filter((line) => !marks[line.student_id]).length;
  const changed = roster.students.filter((line) => marks[line.student_id] && marks[line.student_id] !== saved[line.student_id]);

  const allPresent = () =>
    setMarks((current) => {
      const next = { ...current };
      for (const line of roster.students) next[line.student_id] ??= 'PRESENT';
      return next;
    });

  const submit = async () => {
    setProblem(null);
    try {
      await save(changed.map((line) => ({ student_id: line.student_id, status: marks[line.student_id]! })));
      message.success(t('attendance.saved'));
      await query.refetch();
    } catch (error) {
      setProblem(toProviderError(error).message);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="attendance-roster">
      <div className="attendance-toolbar">
        <Button size="large" icon={<CheckOutlined />} onClick={allPresent} disabled={!unmarked}>
          {t('attendance.allPresent')}
        </Button>
        <Button size="large" type="primary" onClick={() => void submit()} loading={saving} disabled={!changed.length}>
          {t('attendance.save')}
        </Button>
      </div>
      {unmarked > 0 && <Typography.Text type="secondary">{t('attendance.unmarked', { count: unmarked })}</Typography.Text>}
      {problem && <Alert type="error" showIcon message={problem} />}
      <ul className="attendance-roster">
        {roster.students.map((line) => {
          const name = line.student.name ?? `#${line.student_id}`;
          return (
            <li key={line.student_id} data-student-id={line.student_id}>
              <Typography.Text strong className="attendance-name">
                {name}
              </Typography.Text>
              <Radio.Group
                className="attendance-marks"
                optionType="button"
                buttonStyle="solid"
                aria-label={t('attendance.statusGroup', { name })}
                value={marks[line.student_id] ?? null}
                onChange={(event) => setMarks((current) => ({ ...current, [line.student_id]: event.target.value as AttendanceStatus }))}
                options={ATTENDANCE_STATUSES.map((status) => ({
                  value: status,
                  label: t(`attendance.short.${status}`),
                  title: t(`attendance.statuses.${status}`),
                }))}
              />
            </li>
          );
        })}
      </ul>
    </Space>
  );
}
