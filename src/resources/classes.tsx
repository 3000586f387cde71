import { CLASSES } from '../../domain/resources/directory';
import { useTranslation } from 'react-i18next';
import type { Translate } from '../components/fields/format';
import { ResourceScreen, type Row } from '../components/resource-screen';
import { lessonTabs } from './lessons/lesson-tabs';

/** /classes/: `?mode=create`, `?mode=update&class=<id>` or `?mode=view&class=<id>`. */
export default function ClassesPage() {
  const { t } = useTranslation();
  return (
    <ResourceScreen
      def={CLASSES}
      entity="class"
      modes={['create', 'update', 'view']}
      listFields={['name', 'category_id', 'subject_ids', 'student_ids']}
      rowName={(row: Row) => String(row.name)}
      viewTabs={(row) => lessonTabs('class_id', row.id, t as Translate)}
    />
  );
}
