import { FilePdfOutlined, PrinterOutlined, StopOutlined } from '@ant-design/icons';
import { CanAccess, useCustomMutation, useOne } from '@refinedev/core';
import { Alert, App, Button, Form, Input, Modal, Space, Spin, Tag } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import QRCode from 'qrcode';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney } from '../../engine/fields/format';
import { errorText } from '../../providers/errors';
import { fetchBlob } from '../../providers/transfer';
import { useMoneyRefresh } from './refresh';
import type { ReceiptAnswer } from '../../../domain/answers/receipts';
import './receipt.css';

/** GET /api/receipts/:id: a receipt as issued, with its myDATA state (a record for Refine's hooks). */
export type Receipt = ReceiptAnswer & { [key: string]: unknown };

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

export const STATUS_COLOURS: Record<string, string> = { ISSUED: 'blue', SENT: 'green', FAILED: 'red', CANCELLED: 'default' };

/** The receipt's QR code (AADE's address of the registered document), drawn in the browser. */
function QrCode({ url }: { url: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(url, { margin: 1, width: 112, errorCorrectionLevel: 'M' })
      .then((data) => live && setSrc(data))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [url]);
  if (!src) return null;
  return <img className="qr" src={src} width={112} height={112} alt={t('receipts.qr')} data-qr-url={url} />;
}

/** The printed receipt: issuer block, title, number, payer, lines, amount in figures and words, the VAT line, myDATA. */
function FiscalReceiptSheet({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const i = receipt.issuer;
  const p = receipt.payer;
  const place = [text(i.postal_code), text(i.city)].filter(Boolean).join(' ');
  const rows: [string, ReactNode][] = [
    [t('receipts.payer'), text(p.name) ?? ''],
    ...(text(p.address) ? [[t('receipts.address'), text(p.address)] as [string, ReactNode]] : []),
    ...(text(p.tax_id) ? [[t('receipts.taxId'), text(p.tax_id)] as [string, ReactNode]] : []),
    ...receipt.lines.map(
      (l, k) =>
        [
          k === 0 ? t('receipts.lines') : '',
          `${l.description ?? ''}${p.guardian_id && l.student ? ` (${l.student})` : ''} · ${formatMoney(Number(l.amount ?? 0))}`,
        ] as [string, ReactNode],
    ),
    [t('receipts.method'), t(`enums.${receipt.method}`)],
    [
      t('receipts.total'),
      <span key="amount" className="amount">
        {formatMoney(receipt.amount)}
      </span>,
    ],
    [t('receipts.inWords'), receipt.amount_in_words],
  ];
  return (
    <div className="frontis-receipt" data-testid="fiscal-receipt">
      <div className="issuer">
        <strong>{text(i.legal_name) ?? t('receipts.missingIssuer')}</strong>
        <div>
          {[text(i.tax_id) && `${t('receipts.taxId')}: ${text(i.tax_id)}`, text(i.tax_office) && `${t('receipts.taxOffice')}: ${text(i.tax_office)}`]
            .filter(Boolean)
            .join(' · ')}
        </div>
        <div>{[text(i.address), place].filter(Boolean).join(', ')}</div>
        <div>{[text(i.phone), text(i.email)].filter(Boolean).join(' · ')}</div>
      </div>
      <h2>{receipt.kind === 'CREDIT' ? t('receipts.creditTitle') : t('receipts.fiscalTitle')}</h2>
      <p style={{ textAlign: 'center', marginTop: 0 }}>
        {t('receipts.series', { series: receipt.series, number: receipt.number })} · {formatDate(receipt.issued_on)}
      </p>
      {receipt.kind === 'CREDIT' && receipt.cancels_bill_number && (
        <p style={{ textAlign: 'center', fontWeight: 600 }} data-testid="credit-cancels">
          {t(receipt.cancels_mark ? 'receipts.cancelsMark' : 'receipts.cancelsOn', {
            number: receipt.cancels_bill_number,
            date: formatDate(receipt.cancels_issued_on),
            mark: receipt.cancels_mark,
          })}
        </p>
      )}
      <table>
        <tbody>
          {rows.map(([label, value], k) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one printed receipt never move
            <tr key={k}>
              <td>{label}</td>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p style={{ marginTop: '4mm' }}>{receipt.vat_exemption}</p>
      {receipt.kind === 'CREDIT' && receipt.cancel_reason && <p>{t('receipts.reason', { reason: receipt.cancel_reason })}</p>}
      {receipt.status === 'CANCELLED' && <p>{t('receipts.cancelledBy')}</p>}
      <p className="mydata">
        {receipt.mark
          ? t('receipts.mark', { mark: receipt.mark })
          : receipt.error
            ? t('receipts.error', { error: receipt.error })
            : t('receipts.notRegistered')}
      </p>
      {receipt.mark && receipt.qr_url && <QrCode url={receipt.qr_url} />}
    </div>
  );
}

/** Opens the receipt's A5 PDF (with the QR code when registered) in a new tab. */
const openPdf = (id: number) => openPdfFrom(`/api/receipts/${id}/pdf`);

/** Opens the PDF the API answers at `path` in a new tab (the API wants the app's headers, so not a plain link). */
export async function openPdfFrom(path: string) {
  const blob = await fetchBlob(path);
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Cancels a receipt with a credit receipt, asking for the reason. */
function CancelButton({ receipt, onDone }: { receipt: Receipt; onDone(): void }) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();
  const { mutateAsync, mutation } = useCustomMutation<{ id: number; data: Receipt }>();
  const refresh = useMoneyRefresh();
  if (receipt.kind !== 'RECEIPT' || receipt.status === 'CANCELLED') return null;
  return (
    <>
      <Button danger icon={<StopOutlined />} onClick={() => setOpen(true)}>
        {t('receipts.cancel')}
      </Button>
      <Modal
        open={open}
        title={t('receipts.cancelTitle', { number: receipt.bill_number })}
        okText={t('buttons.confirm')}
        cancelText={t('buttons.cancel')}
        okButtonProps={{ danger: true, loading: mutation.isPending }}
        onCancel={() => setOpen(false)}
        onOk={async () => {
          const { reason } = await form.validateFields();
          const answer = await mutateAsync({
            url: `/api/receipts/${receipt.id}/cancel`,
            method: 'post',
            values: { reason },
            successNotification: false,
            errorNotification: false,
          });
          notification.success({ message: t('receipts.cancelled', { number: answer.data.data.bill_number }) });
          setOpen(false);
          await refresh();
          onDone();
        }}
      >
        <Form form={form} layout="vertical">
          <Form.Item name="reason" label={t('receipts.cancelReason')} rules={[{ required: true, min: 3, message: t('forms.required') }]}>
            <Input.TextArea maxLength={500} rows={3} aria-label={t('receipts.cancelReason')} />
          </Form.Item>
        </Form>
        {mutation.error && <Alert type="error" showIcon role="alert" message={errorText(mutation.error)} />}
      </Modal>
    </>
  );
}

/** One receipt in a dialog: printed on an A5 sheet by the browser, or opened as its PDF; cancelled by a credit receipt. */
export function FiscalReceiptModal({ id, onClose }: { id: number | null; onClose(): void }) {
  const { t } = useTranslation();
  const { result: receipt, query } = useOne<Receipt>({ resource: 'receipts', id: id ?? 0, queryOptions: { enabled: id !== null } });
  useEffect(() => {
    if (id === null) return;
    document.body.classList.add('frontis-printing');
    return () => document.body.classList.remove('frontis-printing');
  }, [id]);
  const ready = id !== null && receipt && receipt.id === id;
  return (
    <Modal
      open={id !== null}
      title={ready ? t('receipts.view', { number: receipt.bill_number }) : t('receipts.open')}
      onCancel={onClose}
      width={680}
      footer={
        <Space wrap style={{ justifyContent: 'flex-end' }}>
          {ready && (
            <CanAccess resource="receipts" action="edit">
              <CancelButton receipt={receipt} onDone={() => query.refetch()} />
            </CanAccess>
          )}
          <Button onClick={onClose}>{t('buttons.close')}</Button>
          <Button icon={<FilePdfOutlined />} disabled={!ready} onClick={() => id !== null && openPdf(id)}>
            {t('receipts.pdf')}
          </Button>
          <Button type="primary" icon={<PrinterOutlined />} disabled={!ready} onClick={() => window.print()}>
            {t('receipts.print')}
          </Button>
        </Space>
      }
    >
      {query.isError ? (
        <Alert type="error" message={errorText(query.error)} />
      ) : ready ? (
        <>
          <Tag color={STATUS_COLOURS[receipt.status]}>{t(`enums.${receipt.status}`)}</Tag>
          <FiscalReceiptSheet receipt={receipt} />
        </>
      ) : (
        <Spin />
      )}
      {ready &&
        createPortal(
          <div className="frontis-receipt-print" aria-hidden>
            <FiscalReceiptSheet receipt={receipt} />
          </div>,
          document.body,
        )}
    </Modal>
  );
}
