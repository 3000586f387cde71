/**
 * What the toasts of providers/toasts.ts need beyond antd's `message` and `notification`:
 * - confirmations are announced: antd gives them no live role, so they are drawn inside a polite
 *   live region that is in the page before them (MESSAGE_CONFIG's getContainer), which screen
 *   readers follow more reliably than a region inserted together with its text;
 * - a toast dragged far enough to the right goes away (45 px a confirmation, 50 px a notification);
 * - F8 moves the focus to the notifications (a labelled region), as the toast viewport's hotkey;
 * - the confirmations' width and gap.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATIONS, type SwipeSpec, swipeDismisses, TOAST_REGION_ID, TOASTER, TOASTER_CSS } from '../providers/toasts';

const MESSAGE = '.ant-message-notice';
const NOTIFICATION = '.ant-notification-notice';

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
      // The notifications first, else the confirmations: whichever holds a toast now.
      const viewport = [...document.querySelectorAll<HTMLElement>('.ant-notification, .ant-message')]
        .sort((a, b) => Number(b.matches('.ant-notification')) - Number(a.matches('.ant-notification')))
        .find((container) => container.querySelector(`${NOTIFICATION}, ${MESSAGE}`));
      if (!viewport) return;
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
  useSwipeToDismiss();
  useViewportHotkey(t('notifications.viewport', { hotkey: NOTIFICATIONS.hotkey }));
  return (
    <>
      <style>{TOASTER_CSS}</style>
      <div id={TOAST_REGION_ID} role="status" aria-live="polite" aria-relevant="additions text" />
    </>
  );
}
