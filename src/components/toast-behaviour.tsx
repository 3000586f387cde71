/**
 * What the toasts of providers/toasts.ts need beyond antd's `message` and `notification`:
 * - confirmations are announced: antd gives them no live role, so their text is copied into a
 *   polite (an error: assertive) live region that is always in the page, which screen readers
 *   follow more reliably than a region inserted with its text;
 * - a toast dragged far enough to the right goes away (45 px a confirmation, 50 px a notification);
 * - F8 moves the focus to the notifications (a labelled region), as the toast viewport's hotkey;
 * - the confirmations' width and gap.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATIONS, type SwipeSpec, swipeDismisses, TOASTER, TOASTER_CSS } from '../providers/toasts';

const MESSAGE = '.ant-message-notice';
const NOTIFICATION = '.ant-notification-notice';

const hidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

function useAnnouncements() {
  const [said, setSaid] = useState({ polite: '', assertive: '' });
  useEffect(() => {
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          const notice = node.matches(MESSAGE) ? node : node.querySelector(MESSAGE);
          const text = notice?.textContent?.trim();
          if (!notice || !text) continue;
          const urgent = notice.querySelector('.ant-message-error') !== null;
          // The same words twice in a row are still a new message: clear, then say them.
          setSaid(urgent ? { polite: '', assertive: text } : { polite: text, assertive: '' });
        }
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return said;
}

function useSwipeToDismiss() {
  useEffect(() => {
    let drag: { el: HTMLElement; x: number; y: number; spec: SwipeSpec; pointer: number } | null = null;
    const down = (event: PointerEvent) => {
      const target = event.target as Element | null;
      const el = target?.closest<HTMLElement>(`${MESSAGE}, ${NOTIFICATION}`);
      if (!el || target?.closest('button, a')) return;
      drag = { el, x: event.clientX, y: event.clientY, spec: el.matches(MESSAGE) ? TOASTER : NOTIFICATIONS, pointer: event.pointerId };
    };
    const move = (event: PointerEvent) => {
      if (!drag || event.pointerId !== drag.pointer) return;
      const dx = Math.max(0, event.clientX - drag.x);
      drag.el.style.transform = dx ? `translateX(${dx}px)` : '';
    };
    const release = (event: PointerEvent) => {
      if (!drag || event.pointerId !== drag.pointer) return;
      const { el, spec, x, y } = drag;
      drag = null;
      if (!swipeDismisses(event.clientX - x, event.clientY - y, spec)) {
        el.style.transform = '';
        return;
      }
      const close = el.querySelector<HTMLElement>('.ant-notification-notice-close');
      if (close) close.click();
      // A confirmation has no close button: it leaves the screen now and antd removes it at its time.
      else (el.closest<HTMLElement>('.ant-message-notice-wrapper') ?? el).style.display = 'none';
    };
    document.addEventListener('pointerdown', down);
    document.addEventListener('pointermove', move);
    document.addEventListener('pointerup', release);
    document.addEventListener('pointercancel', release);
    return () => {
      document.removeEventListener('pointerdown', down);
      document.removeEventListener('pointermove', move);
      document.removeEventListener('pointerup', release);
      document.removeEventListener('pointercancel', release);
    };
  }, []);
}

function useViewportHotkey(label: string) {
  const labelRef = useRef(label);
  labelRef.current = label;
  useEffect(() => {
    const key = (event: KeyboardEvent) => {
      if (event.key !== NOTIFICATIONS.hotkey) return;
      const viewport = document.querySelector<HTMLElement>('.ant-notification') ?? document.querySelector<HTMLElement>('.ant-message');
      if (!viewport?.querySelector(`${NOTIFICATION}, ${MESSAGE}`)) return;
      event.preventDefault();
      viewport.setAttribute('role', 'region');
      viewport.setAttribute('aria-label', labelRef.current);
      viewport.tabIndex = -1;
      viewport.focus();
    };
    document.addEventListener('keydown', key);
    return () => document.removeEventListener('keydown', key);
  }, []);
}

export function ToastBehaviour() {
  const { t } = useTranslation();
  const said = useAnnouncements();
  useSwipeToDismiss();
  useViewportHotkey(t('notifications.viewport', { hotkey: NOTIFICATIONS.hotkey }));
  return (
    <>
      <style>{TOASTER_CSS}</style>
      <div role="status" aria-live="polite" aria-atomic="true" style={hidden} data-testid="toast-announcer">
        {said.polite}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true" style={hidden}>
        {said.assertive}
      </div>
    </>
  );
}
