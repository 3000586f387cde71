import { DownloadOutlined, EditOutlined, EyeOutlined, FolderAddOutlined, FolderOutlined, UploadOutlined } from '@ant-design/icons';
import { List } from '@refinedev/antd';
import { useDelete, useInvalidate, useList, type CrudFilter } from '@refinedev/core';
import { App, Breadcrumb, Button, Card, Col, Form, Input, Row, Space, Tree, TreeSelect, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FILES, FOLDERS, PREVIEW_TYPES } from '../../../domain/resources/index';
import { DrawerFormBody, useDrawerForm } from '../../engine/form/drawer-form';
import { useFileDrop } from '../../engine/file-drop';
import { formatInstant } from '../../engine/fields/format';
import { DeleteButton, ListTable } from '../../engine/list/list-table';
import { ModeDrawer } from '../../engine/mode-drawer';
import { errorText, usesText } from '../../providers/errors';
import { toProviderError } from '../../providers/dataProvider';
import { fetchBlob } from '../../providers/transfer';
import { FilePreview, isolate, saveFile, type Preview } from './preview';
import { UploadList, useUploads } from './uploads';
import './files.css';
import { ScreenTitle } from '../../components/headings';
import { useT, type Translate } from '../../providers/i18nProvider';

export interface Folder {
  id: number;
  name: string;
  parent_id: number | null;
  version: number;
}
interface StoredFile {
  id: number;
  name: string;
  folder_id: number | null;
  size: number;
  mime_type: string;
  uploaded_by: string | null;
  uploaded_at: string;
  version: number;
}

/** 1536 -> "1,5 KB", in the reader's number format. */
export function sizeText(t: Translate, bytes: number): string {
  const format = (n: number) => new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(n);
  if (bytes < 1024) return t('files.bytes', { value: format(bytes) });
  if (bytes < 1024 * 1024) return t('files.kilobytes', { value: format(bytes / 1024) });
  return t('files.megabytes', { value: format(bytes / 1024 / 1024) });
}

const idParam = (raw: string | null) => (raw && /^\d+$/.test(raw) ? Number(raw) : null);

function treeOf(folders: readonly Folder[], parent: number | null): DataNode[] {
  return folders.filter((f) => f.parent_id === parent).map((f) => ({ key: f.id, title: f.name, icon: <FolderOutlined />, children: treeOf(folders, f.id) }));
}

/**
 * /file-management/: the folder tree beside the files of the open folder (`folder`), uploads
 * by button or by dropping files anywhere on the page, each with its progress and a cancel.
 * `?mode=create&parent=3` opens a new folder's drawer inside folder 3, `?mode=update&folder=3`
 * renames or moves folder 3, `?mode=update&file=7` renames or moves file 7.
 */
export default function FileManagementPage() {
  const { t } = useT();
  const { modal, message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const invalidate = useInvalidate();
  const { mutateAsync: deleteRow } = useDelete();
  const folderId = idParam(params.get('folder'));
  const parentId = idParam(params.get('parent'));
  const fileId = idParam(params.get('file'));
  const mode = params.get('mode');
  const [preview, setPreview] = useState<Preview | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  const { result: folderPage } = useList<Folder>({ resource: 'folders', pagination: { currentPage: 1, pageSize: 200, mode: 'server' } });
  const folders = folderPage.data;
  const current = folders.find((f) => f.id === folderId) ?? null;
  const tree = useMemo(() => treeOf(folders, null), [folders]);
  const path = useMemo(() => {
    const out: Folder[] = [];
    for (let f = current; f; f = folders.find((p) => p.id === f!.parent_id) ?? null) out.unshift(f);
    return out;
  }, [current, folders]);

  const refresh = () => {
    void invalidate({ resource: 'files', invalidates: ['list'] });
    void invalidate({ resource: 'folders', invalidates: ['list'] });
  };
  const uploads = useUploads(refresh);
  // The same array while the folder stays: the list refetches when its filters change.
  const inFolder = useMemo<CrudFilter[]>(() => (folderId === null ? [] : [{ field: 'folder_id', operator: 'eq', value: folderId }]), [folderId]);

  /** Changes the search parameters from the URL as it is now (the list writes its own too). */
  const go = (changes: Record<string, string | null>) =>
    setParams(() => {
      const copy = new URLSearchParams(window.location.search);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) copy.delete(key);
        else copy.set(key, value);
      }
      return copy;
    });
  const openFolder = (id: number | null) => setParams(id === null ? {} : { folder: String(id) });
  const closeDrawer = () => go({ mode: null, parent: null, file: null });

  const upload = (list: FileList | null) => {
    if (list?.length) uploads.add([...list], folderId);
  };

  const deleteFolder = async (folder: Folder) => {
    const done = async (recursive: boolean) => {
      // the page says what happened itself: no toast of Refine's
      const meta = recursive ? { query: { recursive: 'true' } } : undefined;
      await deleteRow({ resource: FOLDERS.name, id: folder.id, meta, successNotification: false, errorNotification: false });
      message.success(t('files.folderDeleted', { name: folder.name }));
      openFolder(folder.parent_id);
      refresh();
    };
    try {
      await done(false);
    } catch (error) {
      const apiError = toProviderError(error);
      const uses = (apiError.body as { error?: { details?: { uses?: Record<string, number> } } })?.error?.details?.uses;
      if (apiError.code !== 'in-use' || !uses) {
        modal.error({ title: t('directory.deleteFailed'), content: errorText(apiError) });
        return;
      }
      modal.confirm({
        title: t('files.notEmptyTitle', { name: folder.name }),
        content: t('files.notEmpty', { list: usesText(uses) }),
        okText: t('files.deleteWithContents'),
        okButtonProps: { danger: true },
        cancelText: t('buttons.cancel'),
        onOk: () => done(true).catch((e: unknown) => void modal.error({ title: t('directory.deleteFailed'), content: errorText(e) })),
      });
    }
  };

  const deleteFile = async (file: StoredFile) => {
    try {
      await deleteRow({ resource: FILES.name, id: file.id, successNotification: false, errorNotification: false });
      message.success(t('files.fileDeleted', { name: isolate(file.name) }));
      refresh();
    } catch (error) {
      modal.error({ title: t('directory.deleteFailed'), content: errorText(error) });
    }
  };

  const showPreview = async (file: StoredFile) => {
    try {
      const data = await fetchBlob(`/api/files/${file.id}/content`, { inline: 1 });
      setPreview({ name: file.name, type: file.mime_type, url: URL.createObjectURL(data) });
    } catch (error) {
      modal.error({ title: <bdi>{file.name}</bdi>, content: errorText(error) });
    }
  };

  // Dropping files anywhere on the page uploads them into the open folder.
  const drop = useFileDrop(upload);

  const folderName = current?.name ?? t('files.root');
  return (
    <div className="frontis-files" {...drop.handlers}>
      {drop.dragging && (
        <div className="frontis-files-drop" role="status">
          {t('files.dropHere', { folder: folderName })}
        </div>
      )}
      <List
        title={
          <ScreenTitle className="refine-pageHead" style={{ marginBottom: 0 }}>
            {t('files.title')}
          </ScreenTitle>
        }
        breadcrumb={false}
        headerButtons={
          <Space wrap>
            <Button icon={<FolderAddOutlined />} onClick={() => go({ mode: 'create', parent: folderId === null ? null : String(folderId), file: null })}>
              {t('files.newFolder')}
            </Button>
            <Button type="primary" icon={<UploadOutlined />} onClick={() => picker.current?.click()}>
              {t('files.upload')}
            </Button>
            <input
              ref={picker}
              type="file"
              multiple
              hidden
              aria-label={t('files.upload')}
              data-testid="file-input"
              onChange={(e) => {
                upload(e.target.files);
                e.target.value = '';
              }}
            />
          </Space>
        }
      >
        <Row gutter={[16, 16]}>
          <Col xs={24} md={7} lg={6}>
            <Card size="small" className="frontis-files-tree">
              <Button type={current ? 'text' : 'link'} icon={<FolderOutlined />} onClick={() => openFolder(null)}>
                {t('files.root')}
              </Button>
              <Tree
                showIcon
                blockNode
                defaultExpandAll
                key={folders.length}
                treeData={tree}
                selectedKeys={current ? [current.id] : []}
                onSelect={(keys) => keys[0] !== undefined && openFolder(Number(keys[0]))}
              />
            </Card>
          </Col>
          <Col xs={24} md={17} lg={18}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
                <Breadcrumb
                  items={[
                    { title: <Link to={{ search: '' }}>{t('files.root')}</Link> },
                    ...path.map((f) => ({
                      title:
                        f === current ? (
                          <bdi>{f.name}</bdi>
                        ) : (
                          <Link to={{ search: `?folder=${f.id}` }}>
                            <bdi>{f.name}</bdi>
                          </Link>
                        ),
                    })),
                  ]}
                />
                {current && (
                  <Space>
                    <Button size="small" icon={<EditOutlined />} onClick={() => go({ mode: 'update', folder: String(current.id), file: null })}>
                      {t('files.renameFolder')}
                    </Button>
                    <DeleteButton confirm={t('files.deleteFolderConfirm', { name: current.name })} onConfirm={() => deleteFolder(current)}>
                      {t('files.deleteFolder')}
                    </DeleteButton>
                  </Space>
                )}
              </Space>
              <Typography.Text type="secondary">{t('files.dropHint')}</Typography.Text>
              <UploadList uploads={uploads} />
              <ListTable<StoredFile>
                key={folderId ?? 'all'}
                resource="files"
                initialSort={FILES.defaultSort.map((s) => ({ field: s.field, order: s.order }))}
                permanentFilters={inFolder}
                columns={[
                  {
                    key: 'name',
                    dataIndex: 'name',
                    title: t('files.fields.name'),
                    sorter: true,
                    render: (_: unknown, file: StoredFile) => (
                      <Button
                        type="link"
                        size="small"
                        style={{ padding: 0 }}
                        onClick={() => void saveFile(file).catch((e: unknown) => void modal.error({ title: <bdi>{file.name}</bdi>, content: errorText(e) }))}
                      >
                        {/* A name's own direction stays inside it: `invoice‮fdp.exe` cannot pass for a PDF. */}
                        <bdi>{file.name}</bdi>
                      </Button>
                    ),
                  },
                  { key: 'size', dataIndex: 'size', title: t('files.fields.size'), sorter: true, render: (size: number) => sizeText(t, size) },
                  { key: 'mime_type', dataIndex: 'mime_type', title: t('files.fields.mime_type'), sorter: true },
                  { key: 'uploaded_by', dataIndex: 'uploaded_by', title: t('files.fields.uploaded_by'), sorter: true },
                  {
                    key: 'uploaded_at',
                    dataIndex: 'uploaded_at',
                    title: t('files.fields.uploaded_at'),
                    sorter: true,
                    render: (at: string) => formatInstant(at),
                  },
                  {
                    key: 'actions',
                    title: t('table.actions'),
                    render: (_: unknown, file: StoredFile) => (
                      <Space size={4}>
                        <Button
                          size="small"
                          icon={<DownloadOutlined />}
                          title={t('files.download')}
                          aria-label={`${t('files.download')} ${file.name}`}
                          onClick={() => void saveFile(file).catch((e: unknown) => void modal.error({ title: <bdi>{file.name}</bdi>, content: errorText(e) }))}
                        />
                        {PREVIEW_TYPES.includes(file.mime_type) && (
                          <Button
                            size="small"
                            icon={<EyeOutlined />}
                            title={t('files.preview')}
                            aria-label={`${t('files.preview')} ${file.name}`}
                            onClick={() => void showPreview(file)}
                          />
                        )}
                        <Button
                          size="small"
                          icon={<EditOutlined />}
                          title={t('files.rename')}
                          aria-label={`${t('files.rename')} ${file.name}`}
                          onClick={() => go({ mode: 'update', file: String(file.id), parent: null })}
                        />
                        <DeleteButton
                          confirm={t('files.deleteFileConfirm', { name: file.name })}
                          title={t('buttons.delete')}
                          label={`${t('buttons.delete')} ${file.name}`}
                          onConfirm={() => deleteFile(file)}
                        />
                      </Space>
                    ),
                  },
                ]}
              />
            </Space>
          </Col>
        </Row>
      </List>
      <FolderDrawer
        open={mode === 'create' || (mode === 'update' && folderId !== null && fileId === null)}
        mode={mode === 'update' ? 'update' : 'create'}
        id={mode === 'update' ? folderId : null}
        parentId={parentId}
        folders={folders}
        onClose={closeDrawer}
      />
      <FileDrawer open={mode === 'update' && fileId !== null} id={fileId} folders={folders} onClose={closeDrawer} />
      <FilePreview preview={preview} onClose={() => setPreview(null)} />
    </div>
  );
}

/** The folder tree as choices of a TreeSelect, leaving out `except` and what lies inside it. */
function folderChoices(folders: readonly Folder[], parent: number | null, except: number | null): DataNode[] {
  return folders
    .filter((f) => f.parent_id === parent && f.id !== except)
    .map((f) => ({ key: f.id, value: f.id, title: f.name, children: folderChoices(folders, f.id, except) }) as DataNode);
}

function FolderDrawer(props: {
  open: boolean;
  mode: 'create' | 'update';
  id: number | null;
  parentId: number | null;
  folders: readonly Folder[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <ModeDrawer open={props.open} title={props.mode === 'update' ? t('folders.edit') : t('folders.create')} onClose={props.onClose}>
      {props.open && <FolderForm key={`${props.mode}-${props.id}`} {...props} />}
    </ModeDrawer>
  );
}

function FolderForm({ mode, id, parentId, folders, onClose }: Parameters<typeof FolderDrawer>[0]) {
  const { t } = useTranslation();
  const { formProps, saveButtonProps } = useDrawerForm<Folder>({
    resource: FOLDERS.name,
    mode,
    id,
    onDone: onClose,
  });
  return (
    <DrawerFormBody
      formProps={formProps}
      saveButtonProps={saveButtonProps}
      onCancel={onClose}
      initialValues={mode === 'create' ? { parent_id: parentId } : formProps.initialValues}
      onFinish={(values) => {
        const v = values as { name?: string; parent_id?: number | null; version?: number };
        const body = { name: v.name?.trim(), parent_id: v.parent_id ?? null, ...(mode === 'update' ? { version: v.version } : {}) };
        return formProps.onFinish?.(body);
      }}
    >
      <Form.Item name="name" label={t('folders.fields.name')} rules={[{ required: true, whitespace: true, message: t('fields.required') }, { max: 200 }]}>
        <Input autoFocus maxLength={200} />
      </Form.Item>
      <Form.Item name="parent_id" label={t('folders.fields.parent_id')}>
        <TreeSelect allowClear treeDefaultExpandAll placeholder={t('files.noFolder')} treeData={folderChoices(folders, null, mode === 'update' ? id : null)} />
      </Form.Item>
    </DrawerFormBody>
  );
}

function FileDrawer({ open, id, folders, onClose }: { open: boolean; id: number | null; folders: readonly Folder[]; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <ModeDrawer open={open} title={t('files.edit')} onClose={onClose}>
      {open && <FileForm key={id} id={id} folders={folders} onClose={onClose} />}
    </ModeDrawer>
  );
}

function FileForm({ id, folders, onClose }: { id: number | null; folders: readonly Folder[]; onClose(): void }) {
  const { t } = useTranslation();
  const { formProps, saveButtonProps } = useDrawerForm<StoredFile>({
    resource: FILES.name,
    mode: 'update',
    id,
    onDone: onClose,
  });
  return (
    <DrawerFormBody
      formProps={formProps}
      saveButtonProps={saveButtonProps}
      onCancel={onClose}
      onFinish={(values) => {
        const v = values as { name?: string; folder_id?: number | null; version?: number };
        return formProps.onFinish?.({ name: v.name?.trim(), folder_id: v.folder_id ?? null, version: v.version });
      }}
    >
      <Form.Item name="name" label={t('files.fields.name')} rules={[{ required: true, whitespace: true, message: t('fields.required') }, { max: 200 }]}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="folder_id" label={t('files.moveTo')}>
        <TreeSelect allowClear treeDefaultExpandAll placeholder={t('files.noFolder')} treeData={folderChoices(folders, null, null)} />
      </Form.Item>
    </DrawerFormBody>
  );
}
