import { DeleteOutlined, DownloadOutlined, PrinterOutlined, SafetyOutlined } from '@ant-design/icons';
import { useCustomMutation, useInvalidate } from '@refinedev/core';
import { App, Button, Descriptions, Modal, Space, Table } from 'antd';
import { useState } from 'react';
import { can } from '../../../domain/access';
import { formatMoney } from '../../engine/fields/format';
import { API_URL } from '../../providers/dataProvider';
import { errorText } from '../../providers/errors';
import { http } from '../../providers/http';
import { useRole } from '../lessons/status';
import { SectionTitle } from '../../components/headings';
import { useT } from '../../providers/i18nProvider';

type Row = Record<string, unknown>;
type Doc = Record<string, unknown> & { person: Row };

/** The sections of the document, in the order a reader expects them, with how many rows each holds. */
const SECTIONS = [
  'guardians',
  'students',
  'classes',
  'subjects',
  'contracts',
  'payments',
  'receipts',
  'attendance',
  'notes',
  'custom_records',
  'portal_invitations',
  'messages',
  'history',
];

/**
 * The sections a document holds: the known ones in their order, then the rows of any other
 * resource declared to point at the person (the server follows the declarations), titled by it.
 */
const sectionsOf = (doc: Doc) =>
  [...SECTIONS, ...Object.keys(doc).filter((key) => !SECTIONS.includes(key))].filter((key) => key !== 'person' && Array.isArray(doc[key]));

const text = (value: unknown) =>
  value === null || value === undefined || value === '' ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** One row of a section, said briefly (a name, a date and an amount, a status). */
function brief(section: string, row: Row): string {
  if (section === 'payments' || section === 'receipts') return `${text(row.paid_on ?? row.issued_on)} · ${formatMoney(Number(row.amount ?? 0))}`;
  if (section === 'contracts') return `${text(row.start_date)} – ${text(row.end_date)} · ${formatMoney(Number(row.month_cost ?? 0))}`;
  if (section === 'attendance') return `${text(row.lesson_date)} · ${text(row.status)}`;
  if (section === 'history') return `${text(row.at)} · ${text(row.entity)} · ${text(row.action)}`;
  if (section === 'messages') return `${text(row.created_at)} · ${text(row.subject)}`;
  if (section === 'notes') return `${text(row.title)}`;
  if (section === 'portal_invitations') return `${text(row.created_at)} · ${text(row.email)}`;
  return [row.first_name, row.last_name, row.name].filter(Boolean).map(String).join(' ') || text(row.id);
}

/**
 * ADMIN and ROOT: the person's data as a readable, printable summary (and the whole JSON
 * document to download), and the erasure of the person, after a confirmation.
 */
export function PersonalDataActions({ resource, id, name }: { resource: 'students' | 'guardians'; id: number; name: string }) {
  const { t } = useT();
  const role = useRole();
  const { modal, message } = App.useApp();
  const invalidate = useInvalidate();
  const { mutateAsync: post } = useCustomMutation();
  const [doc, setDoc] = useState<Doc | null>(null);
  const [loading, setLoading] = useState(false);
  if (!can(role, 'personalData', 'read')) return null;

  const open = async () => {
    setLoading(true);
    try {
      const { data } = await http.get<{ data: Doc }>(`${API_URL}/${resource}/${id}/personal-data`);
      setDoc(data.data);
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setLoading(false);
    }
  };

  const download = () => {
    if (!doc) return;
    const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${resource}-${id}-personal-data.json`;
    a.click();
    URL.revokeObjectURL(url);
  };

  const erase = () =>
    modal.confirm({
      title: t('personalData.eraseTitle', { name }),
      content: t('personalData.eraseText'),
      okText: t('personalData.eraseOk'),
      okButtonProps: { danger: true },
      cancelText: t('buttons.cancel'),
      onOk: async () => {
        try {
          await post({ url: `${API_URL}/${resource}/${id}/erase`, method: 'post', values: {}, successNotification: false, errorNotification: false });
          await invalidate({ resource, invalidates: ['all'] });
          message.success(t('personalData.erased'));
        } catch (error) {
          message.error(errorText(error));
        }
      },
    });

  return (
    <>
      <Space wrap style={{ marginTop: 16 }}>
        <Button icon={<SafetyOutlined />} loading={loading} onClick={open}>
          {t('personalData.open')}
        </Button>
        <Button danger icon={<DeleteOutlined />} onClick={erase}>
          {t('personalData.erase')}
        </Button>
      </Space>
      <Modal
        title={t('personalData.title', { name })}
        open={doc !== null}
        onCancel={() => setDoc(null)}
        width={860}
        footer={
          <Space>
            <Button icon={<DownloadOutlined />} onClick={download}>
              {t('personalData.downloadJson')}
            </Button>
            <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
              {t('personalData.print')}
            </Button>
          </Space>
        }
      >
        {doc && (
          <div className="personal-data-summary">
            <Descriptions bordered size="small" column={1}>
              {Object.entries(doc.person).map(([key, value]) => (
                <Descriptions.Item key={key} label={key}>
                  {text(value)}
                </Descriptions.Item>
              ))}
            </Descriptions>
            {sectionsOf(doc).map((section) => {
              const rows = doc[section] as Row[];
              const title = SECTIONS.includes(section)
                ? t(`personalData.sections.${section}`, { count: rows.length })
                : t('personalData.otherSection', { name: t(`${section}.title`), count: rows.length });
              return (
                <div key={section} style={{ marginTop: 16 }}>
                  <SectionTitle>{title}</SectionTitle>
                  {rows.length > 0 && (
                    <Table
                      size="small"
                      pagination={false}
                      rowKey={(r) => `${section}-${String(r.id ?? JSON.stringify(r))}`}
                      dataSource={rows}
                      columns={[{ key: 'row', title: t('personalData.entry'), render: (_, r) => brief(section, r) }]}
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </Modal>
    </>
  );
}
