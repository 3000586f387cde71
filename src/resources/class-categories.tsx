import { CLASS_CATEGORIES } from '../../domain/resources/directory';
import { ResourceScreen, type Row } from '../components/resource-screen';

/** /classes/settings: Class Categories (ROOT, ADMIN). `?mode=update&category=<id>`. */
export default function ClassCategoriesPage() {
  return <ResourceScreen def={CLASS_CATEGORIES} entity="category" modes={['create', 'update']} rowName={(row: Row) => String(row.name)} />;
}
