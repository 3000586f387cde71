import { useTable } from '@refinedev/antd';
import type { BaseRecord, CrudFilter, CrudFilters, CrudSort, CrudSorting } from '@refinedev/core';
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Input, Popconfirm, Space, Table, type TableColumnsType, type TableProps } from 'antd';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Translate } from '../../providers/i18nProvider';

/** The footer every list shows: 'Show {from} to {to} from {count} total entries'. */
export const footerOf =
  (t: Translate) =>
  (total: number, [from, to]: [number, number]) =>
    t('table.footer', { from: total ? from : 0, to, count: total });

/** What columns and toolbars may read and change of the list's state. */
export interface ListState {
  sorters: CrudSorting;
  filters: CrudFilters;
  /** Sets (merges) filters and goes back to the first page. */
  setFilters(filters: CrudFilter[]): void;
  /** Sums over every row the filters match, when the API adds them to the page (money lists); undefined while loading. */
  totals?: Record<string, number>;
}

export interface ListTableProps<T extends BaseRecord> {
  resource: string;
  /** Columns, or a function of the current sorters and filters (for defaultSortOrder etc.). */
  columns: TableColumnsType<T> | ((state: ListState) => TableColumnsType<T>);
  initialSort?: CrudSort[];
  /** Filters a list opens with when its address names none (the user can remove them). */
  initialFilters?: CrudFilter[];
  /** Filters the user can't remove (e.g. a fixed role). */
  permanentFilters?: CrudFilter[];
  /** Show the search box (sent as `q`). */
  searchable?: boolean;
  /** Buttons shown beside the search box. */
  toolbar?: ReactNode | ((state: ListState) => ReactNode);
  pageSize?: number;
  /** Columns set filters themselves (setFilters) with their own operators, not antd's 'in'. */
  manualFilters?: boolean;
  /**
   * Keep page, sort and filters in the URL (the default). A list inside another screen's
   * drawer (a tab of a record) keeps them to itself, leaving the URL to the screen's own list.
   */
  syncWithLocation?: boolean;
  /** antd's table size: 'small' for a list inside a tab. */
  size?: 'small' | 'middle' | 'large';
  /** Per row: what a click on it does (a related row opens its own screen). */
  onRow?: TableProps<T>['onRow'];
}

const columnName = <T,>(column: TableColumnsType<T>[number]): string =>
  String(column.key ?? ('dataIndex' in column ? [column.dataIndex].flat().join('.') : ''));

/**
 * One sort at a time: a click on a header sorts by that column alone (a second click reverses
 * it, never back to "unsorted"), and the arrow shows the sort the list was asked for, which the
 * URL keeps. antd's multi-column sorting would only append the click behind the default order.
 */
function singleSort<T>(columns: TableColumnsType<T>, sorters: CrudSorting): TableColumnsType<T> {
  const [first] = sorters;
  return columns.map((column) => {
    if (!column.sorter) return column;
    const sorted = first !== undefined && first.field === columnName(column);
    return {
      ...column,
      sorter: true,
      defaultSortOrder: undefined,
      sortOrder: sorted ? (first.order === 'desc' ? 'descend' : 'ascend') : null,
      sortDirections: ['ascend', 'descend', 'ascend'],
    };
  });
}

/**
 * A server-side list: paging, sorting and filtering are done by the API (kept in the URL unless
 * told otherwise), with the search box, footer text and empty text the customer asked for.
 */
export function ListTable<T extends BaseRecord>({
  resource,
  columns,
  initialSort,
  initialFilters,
  permanentFilters,
  searchable = true,
  toolbar,
  pageSize = 25,
  manualFilters = false,
  syncWithLocation = true,
  size,
  onRow,
}: ListTableProps<T>) {
  const { t } = useTranslation();
  const { tableProps, tableQuery, setFilters, filters, sorters, setCurrentPage } = useTable<T>({
    resource,
    syncWithLocation,
    pagination: { pageSize, mode: 'server' },
    sorters: { initial: initialSort, mode: 'server' },
    filters: { initial: initialFilters, permanent: permanentFilters, mode: 'server', defaultBehavior: 'merge' },
  });
  const currentQ = useMemo(() => {
    const q = filters.find((f) => 'field' in f && f.field === 'q');
    return q && 'value' in q ? String(q.value ?? '') : '';
  }, [filters]);
  const [search, setSearch] = useState(currentQ);
  const state: ListState = {
    sorters,
    filters,
    // the page's own answer carries them: no second request for the sums
    totals: (tableQuery.data as { totals?: Record<string, number> } | undefined)?.totals,
    setFilters: (next) => {
      setFilters(next, 'merge');
      setCurrentPage(1);
    },
  };
  // Typing searches after a short pause; Enter searches at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text and the applied query start a search
  useEffect(() => {
    if (search.trim() === currentQ) return;
    const timer = setTimeout(() => state.setFilters([{ field: 'q', operator: 'eq', value: search.trim() || undefined }]), 400);
    return () => clearTimeout(timer);
  }, [search, currentQ]);
  const onChange: typeof tableProps.onChange = manualFilters
    ? (pagination, _filters, sorter, extra) => tableProps.onChange?.(pagination, {}, sorter, extra)
    : tableProps.onChange;

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
              onSearch={(value) => state.setFilters([{ field: 'q', operator: 'eq', value: value.trim() || undefined }])}
              style={{ maxWidth: 320 }}
            />
          ) : (
            <span />
          )}
          {typeof toolbar === 'function' ? toolbar(state) : toolbar}
        </div>
      )}
      <Table<T>
        {...tableProps}
        onChange={onChange}
        size={size}
        onRow={onRow}
        rowKey="id"
        columns={singleSort(typeof columns === 'function' ? columns(state) : columns, sorters)}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('table.empty') }}
        pagination={
          pagination && {
            ...pagination,
            showSizeChanger: true,
            pageSizeOptions: [10, 25, 50, 100, 200],
            showTotal: footerOf(t),
          }
        }
      />
    </Space>
  );
}

/**
 * A small danger delete button that asks first (`confirm`, with Delete and Cancel): a row's,
 * an icon alone named by `title` and `label`, or with its words (`children`).
 */
export function DeleteButton({
  confirm,
  onConfirm,
  okText,
  title,
  label = title,
  children,
}: {
  confirm: string;
  onConfirm(): unknown;
  okText?: string;
  title?: string;
  label?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Popconfirm title={confirm} okText={okText ?? t('buttons.delete')} okButtonProps={{ danger: true }} cancelText={t('buttons.cancel')} onConfirm={onConfirm}>
      <Button size="small" danger icon={<DeleteOutlined />} title={title} aria-label={label}>
        {children}
      </Button>
    </Popconfirm>
  );
}
