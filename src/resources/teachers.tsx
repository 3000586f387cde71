import { useTranslation } from 'react-i18next';
import { TEACHERS } from '../../domain/resources/people';
import { CalendarFeedCard } from '../components/calendar-feed';
import type { Translate } from '../components/fields/format';
import { ResourceScreen, type Row } from '../components/resource-screen';
import { lessonTabs } from './lessons/lesson-tabs';

const name = (row: Row) => `${String(row.first_name ?? '')} ${String(row.last_name ?? '')}`.trim();

/**
 * /teachers/: `?mode=create|update|view&teacher=<id>`. Creating a teacher also creates their
 * TEACHER sign-in (username, password); deleting one keeps the record and ends the sign-in.
 */
export default function TeachersPage() {
  const { t } = useTranslation();
  return (
    <ResourceScreen
      def={TEACHERS}
      entity="teacher"
      modes={['create', 'update', 'view']}
      listFields={['last_name', 'first_name', 'username', 'email', 'phone', 'subject_ids', 'color']}
      formFields={[
        'username',
        'password',
        'confirm_password',
        'first_name',
        'last_name',
        'email',
        'phone',
        'birth_date',
        'gender',
        'subject_ids',
        'color',
        'information',
      ]}
      rowName={name}
      deleteConfirm={(row) => t('teachers.deleteConfirm', { name: name(row) })}
      viewTabs={(row) => lessonTabs('teacher_id', row.id, t as Translate)}
      viewExtra={(row) => (row.deleted ? null : <CalendarFeedCard endpoint={`/api/teachers/${row.id}/calendar-feed`} />)}
    />
  );
}
