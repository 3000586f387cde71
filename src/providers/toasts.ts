/**
 * The toasts' settings. Two kinds, as the client spec has them:
 * - short confirmations (antd `message`): 4 s, at most 3 on screen, 356 px wide, 14 px apart,
 *   dismissed by a 45 px swipe;
 * - notifications (antd `notification`: Refine's notices, the bell, the sign-in page): one at a
 *   time, a new one replaces the others, 5 s, dismissed by a 50 px swipe to the right, and F8
 *   moves the focus to them. Their variants are `default` and `destructive` (errors).
 * components/toast-behaviour.tsx adds what antd lacks (the swipe, F8, width and gap, the
 * announcement of confirmations); tests/unit/spec-constants.test.ts reads these values.
 */
export const TOAST_VARIANTS = ['default', 'destructive'] as const;
type ToastVariant = (typeof TOAST_VARIANTS)[number];

export interface SwipeSpec {
  swipeDirection: 'right';
  /** How far (px) a toast must be dragged to be dismissed. */
  swipeThreshold: number;
}

export const TOASTER = { duration: 4000, visibleToasts: 3, width: 356, gap: 14, swipeDirection: 'right', swipeThreshold: 45 } as const satisfies SwipeSpec &
  Record<string, unknown>;

export const NOTIFICATIONS = { limit: 1, duration: 5000, swipeDirection: 'right', swipeThreshold: 50, hotkey: 'F8' } as const satisfies SwipeSpec &
  Record<string, unknown>;

/** The polite live region (components/toast-behaviour.tsx) the confirmations are drawn in, so they are announced. */
export const TOAST_REGION_ID = 'toast-region';

/** antd's `message` settings (its durations are in seconds). */
export const MESSAGE_CONFIG = {
  maxCount: TOASTER.visibleToasts,
  duration: TOASTER.duration / 1000,
  // A stable function: antd asks for the container on every render.
  getContainer: () => document.getElementById(TOAST_REGION_ID) ?? document.body,
};

/** antd's `notification` settings: `maxCount: 1` is "a new one replaces the others". */
export const NOTIFICATION_CONFIG = { maxCount: NOTIFICATIONS.limit, duration: NOTIFICATIONS.duration / 1000 };

/** An error is `destructive` (announced at once, role alert); anything else is `default` (role status). */
export const variantOf = (type: string | undefined): ToastVariant => (type === 'error' ? 'destructive' : 'default');

/** Whether a drag of (dx, dy) px dismisses a toast: far enough, in its direction, more across than down. */
export const swipeDismisses = (dx: number, dy: number, spec: SwipeSpec) => dx >= spec.swipeThreshold && Math.abs(dx) > Math.abs(dy);

/** Width and gap of the confirmations (antd's notices have a padding where sonner has a gap). */
export const TOASTER_CSS = `
.ant-message .ant-message-notice-wrapper .ant-message-notice { padding: 0 0 ${TOASTER.gap}px; }
.ant-message .ant-message-notice-wrapper .ant-message-notice-content { width: ${TOASTER.width}px; max-width: calc(100vw - 32px); text-align: start; touch-action: pan-y; }
.ant-notification .ant-notification-notice { touch-action: pan-y; }
`;
