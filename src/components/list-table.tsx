import { useTable } from '@refinedev/antd';
import type { BaseRecord, CrudFilter, CrudFilters, CrudSort, CrudSorting } from '@refinedev/core';
import { Input, Space, Table, type TableColumnsType } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ListTableProps<T extends BaseRecord> {
  resource: string;
  /** Columns, or a function of the current sorters and filters (for defaultSortOrder etc.). */
  columns: TableColumnsType<T> | ((state: { sorters: CrudSorting; filters: CrudFilters }) => TableColumnsType<T>);
  initialSort?: CrudSort[];
  /** Filters the user can't remove (e.g. a fixed role). */
  permanentFilters?: CrudFilter[];
  /** Show the search box (sent as `q`). */
  searchable?: boolean;
  /** Buttons shown beside the search box. */
  toolbar?: ReactNode;
  pageSize?: number;
}

/**
 * A server-side list: paging, sorting and filtering are done by the API (kept in the URL by
 * syncWithLocation), with the search box, footer text and empty text of SPEC.md.
 */
export function ListTable<T extends BaseRecord>({
  resource,
  columns,
  initialSort,
  permanentFilters,
  searchable = true,
  toolbar,
  pageSize = 25,
}: ListTableProps<T>) {
  const { t } = useTranslation();
  const { tableProps, setFilters, filters, sorters } = useTable<T>({
    resource,
    syncWithLocation: true,
    pagination: { pageSize, mode: 'server' },
    sorters: { initial: initialSort, mode: 'server' },
    filters: { permanent: permanentFilters, mode: 'server', defaultBehavior: 'merge' },
  });
  const currentQ = useMemo(() => {
    const q = filters.find((f) => 'field' in f && f.field === 'q');
    return q && 'value' in q ? String(q.value ?? '') : '';
  }, [filters]);
  const [search, setSearch] = useState(currentQ);

  const pagination = tableProps.pagination === false ? false : tableProps.pagination;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {(searchable || toolbar) && (
        <div style={{ display: 'flex', gap: 12, justifyContent: 'space-between', flexWrap: 'wrap' }}>
          {searchable ? (
            <Input.Search
              allowClear
              role="searchbox"
              placeholder={t('table.search')}
              aria-label={t('table.search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onSearch={(value) => setFilters([{ field: 'q', operator: 'eq', value: value.trim() || undefined }], 'merge')}
              style={{ maxWidth: 320 }}
            />
          ) : (
            <span />
          )}
          {toolbar}
        </div>
      )}
      <Table<T>
        {...tableProps}
        rowKey="id"
        columns={typeof columns === 'function' ? columns({ sorters, filters }) : columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('table.empty') }}
        pagination={
          pagination && {
            ...pagination,
            showSizeChanger: true,
            pageSizeOptions: [10, 25, 50, 100, 200],
            showTotal: (total, [from, to]) => t('table.footer', { from: total ? from : 0, to, count: total }),
          }
        }
      />
    </Space>
  );
}
