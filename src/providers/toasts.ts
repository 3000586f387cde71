/** antd notification/message settings: one toast at a time, a new one replaces the others, 4 s. */
export const TOASTS = { maxCount: 1, duration: 4 } as const;
