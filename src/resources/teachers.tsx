import { useTranslation } from 'react-i18next';
import { TEACHERS } from '../../domain/resources/people';
import { CalendarFeedCard } from '../components/calendar-feed';
import { ResourceScreen, rowTitle } from '../engine/resource-screen';

const name = rowTitle(TEACHERS);

/**
 * /teachers/: `?mode=create|update|view&teacher=<id>`. Creating a teacher also creates their
 * TEACHER sign-in (username, password); deleting one keeps the record and ends the sign-in.
 */
export default function TeachersPage() {
  const { t } = useTranslation();
  return (
    <ResourceScreen
      def={TEACHERS}
      remove={{ confirm: (row) => t('teachers.deleteConfirm', { name: name(row) }) }}
      view={{ extra: (row) => (row.deleted ? null : <CalendarFeedCard endpoint={`/api/teachers/${row.id}/calendar-feed`} />) }}
    />
  );
}
