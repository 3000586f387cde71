import type { BaseRecord, CrudFilter, CrudSort } from '@refinedev/core';
import type { TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { ListTable } from '../list/list-table';

interface RelatedRowsProps<T extends BaseRecord> {
  /** The API resource whose rows point at the record. */
  resource: string;
  /** The filter naming the record (and any the tab adds, a date range); the user cannot remove them. */
  filters: CrudFilter[];
  sort: CrudSort[];
  columns: TableColumnsType<T>;
  /** Rows at a time (the pager offers other sizes). */
  pageSize?: number;
  /** Where a click on a row leads (its own screen); rows do not open when absent. */
  linkOf?(row: T): string;
}

/**
 * Every "rows pointing at this record" tab of a detail view (a teacher's lessons, a student's
 * contracts, a custom entity's records naming a student): the server pages, sorts and counts
 * them like every list, and the tab keeps its page and sort to itself (the URL belongs to the
 * screen behind the drawer).
 */
export function RelatedRows<T extends BaseRecord>({ resource, filters, sort, columns, pageSize = 10, linkOf }: RelatedRowsProps<T>) {
  const navigate = useNavigate();
  return (
    <ListTable<T>
      resource={resource}
      syncWithLocation={false}
      searchable={false}
      size="small"
      pageSize={pageSize}
      permanentFilters={filters}
      initialSort={sort}
      columns={columns}
      onRow={linkOf && ((row) => ({ onClick: () => navigate(linkOf(row)), style: { cursor: 'pointer' } }))}
    />
  );
}
