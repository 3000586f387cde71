import { SUBJECTS } from '../../domain/resources/directory';
import { ResourceScreen, type Row } from '../components/resource-screen';

/** /subjects/: `?mode=create` or `?mode=update&subject=<id>`. */
export default function SubjectsPage() {
  return <ResourceScreen def={SUBJECTS} entity="subject" modes={['create', 'update']} rowName={(row: Row) => String(row.name)} />;
}
