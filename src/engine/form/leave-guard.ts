import { App } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Asks "discard changes?" (translated); runs `discard` when the user agrees. */
export function useDiscardQuestion(): (discard: () => void) => void {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  const asking = useRef(false);
  return useCallback(
    (discard: () => void) => {
      if (asking.current) return;
      asking.current = true;
      modal.confirm({
        title: t('typing.discard.title'),
        content: t('typing.discard.description'),
        okText: t('typing.discard.ok'),
        okButtonProps: { danger: true },
        cancelText: t('typing.discard.keep'),
        onOk: discard,
        afterClose: () => {
          asking.current = false;
        },
      });
    },
    [modal, t],
  );
}

/**
 * While `changed()` holds, leaving the screen asks first: a link to another screen (the
 * sidebar's, any in-app link) waits for "discard changes?", and closing or reloading the tab
 * gets the browser's own question. `active` false turns it off (a closed drawer).
 */
export function useLeaveGuard(changed: () => boolean, active = true) {
  const check = useRef(changed);
  check.current = changed;
  const ask = useDiscardQuestion();
  const askRef = useRef(ask);
  askRef.current = ask;
  const navigate = useNavigate();
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!check.current()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    // Before React sees the click (capture on the document): a link elsewhere waits for the answer.
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
      const url = new URL(link.href, location.href);
      if (url.origin !== location.origin || url.pathname === location.pathname) return;
      if (!check.current()) return;
      event.preventDefault();
      event.stopPropagation();
      askRef.current(() => navigate(url.pathname + url.search + url.hash));
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [active, navigate]);
}
