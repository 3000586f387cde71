import { CONTRACT_CATEGORIES } from '../../domain/resources/directory';
import { ResourceScreen, type Row } from '../components/resource-screen';

/** /contracts/settings: Contract Category (ROOT, ADMIN). `?mode=update&category=<id>`. */
export default function ContractCategoriesPage() {
  return <ResourceScreen def={CONTRACT_CATEGORIES} entity="category" modes={['create', 'update']} rowName={(row: Row) => String(row.name)} />;
}
