import { ROOMS } from '../../domain/resources/directory';
import { ResourceScreen, type Row } from '../components/resource-screen';

/** /rooms/: `?mode=create` or `?mode=update&room=<id>`. */
export default function RoomsPage() {
  return <ResourceScreen def={ROOMS} entity="room" modes={['create', 'update']} rowName={(row: Row) => String(row.name)} />;
}
