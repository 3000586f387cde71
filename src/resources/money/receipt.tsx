import { PrinterOutlined } from '@ant-design/icons';
import { useGetIdentity, useOne } from '@refinedev/core';
import { Alert, Button, Modal, Spin } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney } from '../../engine/fields/format';
import { errorText } from '../../providers/errors';
import { hostTenant } from '../../providers/http';
import type { SessionUser } from '../../providers/session';
import { monthLabel, type Payment } from './types';
import { euroInWords } from './words';
import { FiscalReceiptModal } from './fiscal-receipt';
import './receipt.css';

/** What the payment was for, in words: "Δίδακτρα Νοεμβρίου 2026", "Εγγραφή", or the extra charge's description. */
function paymentPurpose(payment: Payment, t: (key: string, o?: Record<string, unknown>) => string, language: string): string {
  if (payment.kind === 'MONTHLY') return t('receipt.monthly', { month: monthLabel(payment.month, language) });
  if (payment.kind === 'REGISTER') return t('receipt.register');
  return payment.description ? `${t('receipt.extra')}: ${payment.description}` : t('receipt.extra');
}

function ReceiptSheet({ payment }: { payment: Payment }) {
  const { t, i18n } = useTranslation();
  // The signed-in answer (asked once per session) carries the centre's name; the host's label stands in without it.
  const { data: identity } = useGetIdentity<SessionUser>();
  const centre = identity?.tenantName || t('receipt.centre', { name: hostTenant() });
  const rows: [string, ReactNode][] = [
    [t('receipt.number'), payment.bill_number ?? `#${payment.id}`],
    [t('receipt.date'), formatDate(payment.paid_on)],
    [t('receipt.receivedFrom'), payment.student?.name ?? ''],
    [t('receipt.for'), paymentPurpose(payment, t, i18n.language)],
    [t('receipt.method'), t(`enums.${payment.method}`)],
    [
      t('receipt.amount'),
      <span key="amount" className="amount">
        {formatMoney(payment.amount)}
      </span>,
    ],
    [t('receipt.inWords'), euroInWords(payment.amount)],
  ];
  return (
    <div className="frontis-receipt" data-testid="acknowledgement">
      <h2>{t('receipts.acknowledgement')}</h2>
      <p style={{ textAlign: 'center', marginTop: 0 }}>
        <strong>{centre}</strong>
      </p>
      <table>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <td>{label}</td>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="signature">
        <span>{t('receipt.payer')}</span>
        <span>{t('receipt.receiver')}</span>
      </div>
    </div>
  );
}

/**
 * A payment's receipt, shown in a dialog and printed by the browser on an A5 sheet: its fiscal
 * receipt while one stands, else an acknowledgement that says it is not a fiscal document.
 * For print the sheet is copied to the end of <body> and everything else is hidden (receipt.css).
 */
export function ReceiptModal({ id, onClose }: { id: number | null; onClose(): void }) {
  const { t } = useTranslation();
  const { result: payment, query } = useOne<Payment>({ resource: 'payments', id: id ?? 0, queryOptions: { enabled: id !== null } });
  useEffect(() => {
    if (id === null) return;
    document.body.classList.add('frontis-printing');
    return () => document.body.classList.remove('frontis-printing');
  }, [id]);
  const ready = id !== null && payment && payment.id === id;
  if (ready && typeof payment.receipt_id === 'number') return <FiscalReceiptModal id={payment.receipt_id} onClose={onClose} />;
  return (
    <Modal
      open={id !== null}
      title={t('receipts.acknowledgement')}
      onCancel={onClose}
      width={640}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('buttons.close')}
        </Button>,
        <Button key="print" type="primary" icon={<PrinterOutlined />} disabled={!ready} onClick={() => window.print()}>
          {t('receipt.print')}
        </Button>,
      ]}
    >
      {query.isError ? <Alert type="error" message={errorText(query.error)} /> : ready ? <ReceiptSheet payment={payment} /> : <Spin />}
      {ready &&
        createPortal(
          <div className="frontis-receipt-print" aria-hidden>
            <ReceiptSheet payment={payment} />
          </div>,
          document.body,
        )}
    </Modal>
  );
}
