import { CLASSES } from '../../domain/resources/directory';
import { ResourceScreen, type Row } from '../components/resource-screen';

/** /classes/: `?mode=create`, `?mode=update&class=<id>` or `?mode=view&class=<id>`. */
export default function ClassesPage() {
  return (
    <ResourceScreen
      def={CLASSES}
      entity="class"
      modes={['create', 'update', 'view']}
      listFields={['name', 'category_id', 'subject_ids', 'student_ids']}
      rowName={(row: Row) => String(row.name)}
    />
  );
}
