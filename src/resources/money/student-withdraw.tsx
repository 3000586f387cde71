import { useCustomMutation } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_URL, dataProvider } from '../../providers/dataProvider';
import { WithdrawDialog } from './contract-lifecycle';
import { useMoneyRefresh } from './refresh';

interface Offer {
  studentId: number;
  count: number;
}

/** A write's variables as Refine's update mutation carries them. */
interface UpdateVariables {
  resource?: string;
  id?: number | string;
  values?: Record<string, unknown>;
}

/**
 * On the students' screen: once a student is set INACTIVE (by her form or by "mark inactive"),
 * offers to withdraw her active contracts on a date (docs/rules.md, Contracts).
 */
export function OfferWithdrawOnInactive() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const refresh = useMoneyRefresh();
  const { mutateAsync } = useCustomMutation<{ data: unknown[] }>();
  const [offer, setOffer] = useState<Offer | null>(null);
  const seen = useRef(new Set<number>());
  useEffect(
    () =>
      client.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success') return;
        if (seen.current.has(event.mutation.mutationId)) return;
        const vars = event.mutation.state.variables as UpdateVariables | undefined;
        if (vars?.resource !== 'students' || vars.values?.status !== 'INACTIVE' || vars.id === undefined) return;
        seen.current.add(event.mutation.mutationId);
        const studentId = Number(vars.id);
        void dataProvider
          .getList({
            resource: 'contracts',
            filters: [
              { field: 'student_id', operator: 'eq', value: studentId },
              { field: 'status', operator: 'eq', value: 'ACTIVE' },
            ],
            pagination: { currentPage: 1, pageSize: 1, mode: 'server' },
          })
          .then((answer) => {
            if (answer.total > 0) setOffer({ studentId, count: answer.total });
          })
          .catch(() => undefined);
      }),
    [client],
  );
  if (!offer) return null;
  return (
    <WithdrawDialog
      open
      title={t('contractLifecycle.studentInactiveTitle')}
      help={<Alert type="warning" message={t('contractLifecycle.studentInactiveText', { count: offer.count })} />}
      okText={t('contractLifecycle.withdrawAll')}
      cancelText={t('contractLifecycle.keep')}
      onClose={() => setOffer(null)}
      onSubmit={async (values) => {
        const answer = await mutateAsync({
          url: `${API_URL}/contracts/withdraw`,
          method: 'post',
          values: { student_id: offer.studentId, ...values },
          successNotification: false,
          errorNotification: false,
        });
        await refresh();
        setOffer(null);
        message.success(t('contractLifecycle.withdrawnMany', { count: answer.data.data.length }));
      }}
    />
  );
}
