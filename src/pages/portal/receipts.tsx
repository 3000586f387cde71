import { FilePdfOutlined } from '@ant-design/icons';
import { App, Button, List, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { PortalReceiptSchema } from '../../../domain/answers/portal';
import { formatDate, formatMoney } from '../../engine/fields/format';
import { errorText } from '../../providers/errors';
import { openPdfFrom } from '../../resources/money/fiscal-receipt';
import { ChildScreen, LoadError, type PortalChild, usePortal } from './portal-data';

type Receipt = z.infer<typeof PortalReceiptSchema>;

function ChildReceipts({ child }: { child: PortalChild }) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [opening, setOpening] = useState<number | null>(null);
  const { data, loading, error } = usePortal<Receipt[]>('/api/portal/receipts', { student_id: child.id });
  if (loading) return <Spin />;
  if (error) return <LoadError error={error} />;
  const open = async (receipt: Receipt) => {
    setOpening(receipt.id);
    try {
      await openPdfFrom(`/api/portal/receipts/${receipt.id}/pdf`);
    } catch (failure) {
      notification.error({ message: errorText(failure) });
    } finally {
      setOpening(null);
    }
  };
  if (!data?.length) return <Typography.Paragraph type="secondary">{t('portal.receipts.none')}</Typography.Paragraph>;
  return (
    <List<Receipt>
      data-testid="portal-receipts"
      dataSource={data}
      renderItem={(receipt) => {
        const number = `${receipt.series}-${receipt.number}`;
        return (
          <List.Item
            data-receipt-id={receipt.id}
            actions={[
              <Button
                key="pdf"
                icon={<FilePdfOutlined />}
                loading={opening === receipt.id}
                aria-label={t('portal.receipts.open', { number })}
                onClick={() => void open(receipt)}
              >
                {t('receipts.pdf')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space wrap size={4}>
                  <span>{t('receipts.series', { series: receipt.series, number: receipt.number })}</span>
                  {receipt.kind === 'CREDIT' && <Tag color="orange">{t('enums.CREDIT')}</Tag>}
                  {receipt.status === 'CANCELLED' && <Tag color="red">{t('enums.CANCELLED')}</Tag>}
                </Space>
              }
              description={
                <>
                  <div>{receipt.description}</div>
                  {receipt.cancels_bill_number && <div>{t('receipts.cancels', { number: receipt.cancels_bill_number })}</div>}
                  <Typography.Text type="secondary">{formatDate(receipt.issued_on)}</Typography.Text>
                </>
              }
            />
            <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
              {/* A credit receipt gives the amount back. */}
              {formatMoney(receipt.kind === 'CREDIT' ? -receipt.amount : receipt.amount)}
            </Typography.Text>
          </List.Item>
        );
      }}
    />
  );
}

/** /portal/receipts/: the chosen child's receipts, newest first, each opened as its printable PDF. */
export default function PortalReceipts() {
  const { t } = useTranslation();
  return <ChildScreen title={t('portal.receipts.title')} render={(child) => <ChildReceipts key={child.id} child={child} />} />;
}
