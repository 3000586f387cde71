import { NOTES } from '../../domain/resources/people';
import { ResourceScreen, type Row } from '../components/resource-screen';

/**
 * /notes/: `?mode=create|update|view&note=<id>`. A note may point at a student, a teacher and a
 * class (links open their view); a TEACHER changes only notes they wrote.
 */
export default function NotesPage() {
  return (
    <ResourceScreen
      def={NOTES}
      entity="note"
      modes={['create', 'update', 'view']}
      listFields={['title', 'student_id', 'teacher_id', 'class_id', 'author_id', 'updated_at']}
      rowName={(row: Row) => String(row.title)}
      ownsRow={(row, me) => row.author_id != null && String(row.author_id) === String(me.id)}
    />
  );
}
