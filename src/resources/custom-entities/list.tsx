import { DeleteOutlined, EditOutlined, PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { List } from '@refinedev/antd';
import { useDelete, useInvalidate } from '@refinedev/core';
import { App, Button, Popconfirm, Space, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { ListTable } from '../../engine/list/list-table';
import { errorText } from '../../providers/errors';
import { toProviderError } from '../../providers/dataProvider';
import { iconOf } from '../index';
import { useRuntimeResources } from '../../engine/runtime/runtime';
import { entityName, inUseDetails, recordsRoute, type EntityRow } from './api';
import { ScreenTitle } from '../../components/headings';
import { useT } from '../../providers/i18nProvider';

/**
 * /custom-entities/ (ROOT): the centre's own record types, each with a link to its records
 * and to the builder. Deleting one that has records asks again, naming how many go with it.
 */
export default function CustomEntitiesPage() {
  const { t, i18n } = useT();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const { reload } = useRuntimeResources();
  const { mutateAsync: deleteRow } = useDelete();
  // the page says what happened itself (a toast, or the dialogs below)
  const deleteEntity = (row: EntityRow, query?: Record<string, string>) =>
    deleteRow({ resource: 'custom-entities', id: row.id, meta: query ? { query } : undefined, successNotification: false, errorNotification: false });

  const removed = async (row: EntityRow) => {
    await invalidate({ resource: 'custom-entities', invalidates: ['list'] });
    await reload();
    message.success(t('directory.deleted', { name: entityName(row, i18n.language) }));
  };

  const remove = async (row: EntityRow) => {
    try {
      await deleteEntity(row);
      await removed(row);
    } catch (error) {
      const apiError = toProviderError(error);
      const { count, reason } = inUseDetails(apiError.body);
      // records of its own go with it when asked; other entities pointing at it must change first
      if (apiError.code !== 'in-use' || (reason !== undefined && reason !== 'records-held')) {
        modal.error({ title: t('directory.deleteFailed'), content: errorText(apiError) });
        return;
      }
      modal.confirm({
        title: t('custom-entities.deleteWithRecordsTitle', { name: entityName(row, i18n.language) }),
        content: count === undefined ? t('custom-entities.deleteWithRecordsText') : t('custom-entities.deleteWithRecordsCount', { count }),
        okText: t('custom-entities.deleteWithRecordsOk'),
        okButtonProps: { danger: true },
        cancelText: t('buttons.cancel'),
        onOk: async () => {
          try {
            await deleteEntity(row, { with_records: 'true' });
            await removed(row);
          } catch (again) {
            modal.error({ title: t('directory.deleteFailed'), content: errorText(again) });
          }
        },
      });
    }
  };

  return (
    <List
      title={
        <ScreenTitle className="refine-pageHead" style={{ marginBottom: 0 }}>
          {t('custom-entities.title')}
        </ScreenTitle>
      }
      breadcrumb={false}
      headerButtons={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/custom-entities/builder/?mode=create')}>
          {t('custom-entities.create')}
        </Button>
      }
    >
      <ListTable<EntityRow & Record<string, unknown>>
        resource="custom-entities"
        initialSort={[{ field: 'slug', order: 'asc' }]}
        columns={[
          {
            key: 'name',
            title: t('custom-entities.fields.name'),
            render: (_: unknown, row) => (
              <Space>
                {iconOf(row.icon ?? undefined)}
                <Link to={recordsRoute(row.slug)}>{entityName(row, i18n.language, row)}</Link>
              </Space>
            ),
          },
          {
            key: 'slug',
            dataIndex: 'slug',
            title: t('custom-entities.fields.slug'),
            sorter: true,
            render: (slug: string) => <Typography.Text code>{slug}</Typography.Text>,
          },
          {
            key: 'fields',
            title: t('custom-entities.fields.fields'),
            render: (_: unknown, row) => t('custom-entities.fieldCount', { count: row.fields?.length ?? 0 }),
          },
          { key: 'description', dataIndex: 'description', title: t('custom-entities.fields.description'), ellipsis: true },
          {
            key: 'actions',
            title: t('table.actions'),
            fixed: 'right',
            render: (_: unknown, row) => (
              <Space size={4}>
                <Button
                  size="small"
                  icon={<UnorderedListOutlined />}
                  title={t('custom-entities.openRecords')}
                  aria-label={t('custom-entities.openRecords')}
                  onClick={() => navigate(recordsRoute(row.slug))}
                />
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  title={t('buttons.edit')}
                  aria-label={t('buttons.edit')}
                  onClick={() => navigate(`/custom-entities/builder/?mode=update&entity=${row.id}`)}
                />
                <Popconfirm
                  title={t('directory.deleteConfirm', { name: entityName(row, i18n.language) })}
                  okText={t('buttons.delete')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('buttons.cancel')}
                  onConfirm={() => remove(row)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} title={t('buttons.delete')} aria-label={t('buttons.delete')} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </List>
  );
}
