import type { HookAPI } from 'antd/es/modal/useModal';
import { i18n } from '../../providers/i18nProvider';

/** A 409 stale answer: someone else saved first. Offer to load their version. */
export function offerReload(modal: HookAPI, error: unknown, reload: () => void): boolean {
  if ((error as { code?: string } | undefined)?.code !== 'stale') return false;
  modal.confirm({
    title: i18n.t('stale.title'),
    content: i18n.t('stale.description'),
    okText: i18n.t('buttons.reload'),
    cancelText: i18n.t('buttons.cancel'),
    onOk: reload,
  });
  return true;
}
