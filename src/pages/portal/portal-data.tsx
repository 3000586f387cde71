import { useCustom } from '@refinedev/core';
import { Alert, Segmented, Select, Space, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import type { PortalChildSchema, PortalLessonSchema, PortalMeAnswer } from '../../../domain/answers/portal';
import { errorText } from '../../providers/errors';
import type { ProviderError } from '../../providers/dataProvider';
import { ScreenTitle } from '../../components/headings';

export type PortalMe = z.infer<typeof PortalMeAnswer>['data'];
export type PortalChild = z.infer<typeof PortalChildSchema>;
export type PortalLesson = z.infer<typeof PortalLessonSchema>;

/** Where her own details and children come from (and go to). */
export const PORTAL_ME_URL = '/api/portal/me';
export const PORTAL_ME_KEY = ['portal-me'];

/** A portal read typed by its answer's `data`, with its loading and failure. */
export function usePortal<T>(url: string, query?: Record<string, string | number | undefined>, enabled = true) {
  const { result, query: state } = useCustom<{ data: T }, ProviderError>({
    url,
    method: 'get',
    config: { query },
    errorNotification: false,
    queryOptions: { enabled, queryKey: ['portal', url, query] },
  });
  return { data: result.data?.data, loading: state.isLoading, error: state.isError ? state.error : null, refetch: state.refetch };
}

/** Herself and her children, fetched once for every portal screen. */
export function usePortalMe() {
  const { result, query } = useCustom<{ data: PortalMe }, ProviderError>({
    url: PORTAL_ME_URL,
    method: 'get',
    errorNotification: false,
    queryOptions: { queryKey: PORTAL_ME_KEY },
  });
  return { me: result.data?.data, query };
}

const fullName = (child: PortalChild) => `${child.first_name} ${child.last_name}`.trim();
export { fullName as childName };

/**
 * The child a screen shows: `?child=<id>` when it is one of hers, else her first. The choice
 * stays in the address, so a reload or a shared link keeps it and Back goes to the previous one.
 */
function useChild(children: readonly PortalChild[] | undefined): [PortalChild | undefined, (id: number) => void] {
  const [params, setParams] = useSearchParams();
  const wanted = Number(params.get('child'));
  const child = children?.find((c) => c.id === wanted) ?? children?.[0];
  const choose = (id: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('child', String(id));
      return next;
    });
  return [child, choose];
}

/** Names her children apart when she has more than one: buttons on a phone, a list when there are many. */
function ChildSwitcher({ family, value, onChange }: { family: readonly PortalChild[]; value?: PortalChild; onChange(id: number): void }) {
  const { t } = useTranslation();
  if (family.length < 2) return null;
  if (family.length > 3) {
    return (
      <Select
        aria-label={t('portal.child')}
        value={value?.id}
        onChange={onChange}
        style={{ minWidth: 200 }}
        options={family.map((c) => ({ value: c.id, label: fullName(c) }))}
        data-testid="child-switcher"
      />
    );
  }
  return (
    <Segmented
      aria-label={t('portal.child')}
      data-testid="child-switcher"
      block
      value={value?.id}
      onChange={(id) => onChange(Number(id))}
      options={family.map((c) => ({ value: c.id, label: c.first_name, title: fullName(c) }))}
    />
  );
}

/**
 * A portal screen: its title, the child switcher when she has several children, and what the
 * screen shows of the chosen child (`render` is called once her children are known).
 */
export function ChildScreen({
  title,
  extra,
  render,
}: {
  title: string;
  extra?: ReactNode;
  render(child: PortalChild, children: readonly PortalChild[]): ReactNode;
}) {
  const { t } = useTranslation();
  const { me, query } = usePortalMe();
  const [child, choose] = useChild(me?.children);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <ScreenTitle style={{ margin: 0 }}>{title}</ScreenTitle>
      {query.isLoading && <Spin />}
      {query.isError && <Alert type="error" showIcon message={errorText(query.error)} />}
      {me && me.children.length === 0 && <Alert type="info" showIcon message={t('portal.noChildren')} />}
      {me && <ChildSwitcher family={me.children} value={child} onChange={choose} />}
      {extra}
      {me && child && render(child, me.children)}
    </Space>
  );
}

/** A failed read, translated. */
export function LoadError({ error }: { error: unknown }) {
  return <Alert type="error" showIcon message={errorText(error)} />;
}
