import { useSyncExternalStore } from 'react';

/**
 * Whether the server answers. A read that finds it unreachable (no answer, or 502/503/504)
 * marks the app offline and waits here before it asks again, with a doubling back-off; the
 * first answer marks it online and tells the listeners (the app refetches what it shows).
 */
let offline = false;
const listeners = new Set<() => void>();
const recoveries = new Set<() => void>();

/** min(1000·2^n, 8000) ms before try n+1: short enough that a few seconds' outage ends soon after the server returns. */
export const outageDelay = (tries: number) => Math.min(1000 * 2 ** tries, 8000);

export const isOffline = () => offline;

export function reportOutage(): void {
  if (offline) return;
  offline = true;
  for (const listener of listeners) listener();
  void pollHealth();
}

export function reportReachable(): void {
  if (!offline) return;
  offline = false;
  for (const listener of listeners) listener();
  for (const recover of recoveries) recover();
}

/** Called each time the server answers again after an outage. */
export function onRecovery(recover: () => void): () => void {
  recoveries.add(recover);
  return () => {
    recoveries.delete(recover);
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** True while the server cannot be reached. */
export const useOffline = () => useSyncExternalStore(subscribe, isOffline, () => false);

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Whether the server answers its health check now. */
export async function serverAnswers(): Promise<boolean> {
  try {
    const res = await fetch('/healthz', { cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}

let polling = false;
/** While offline, asks /healthz with the back-off until it answers (a screen with nothing to fetch recovers too). */
async function pollHealth(): Promise<void> {
  if (polling || typeof window === 'undefined') return;
  polling = true;
  try {
    for (let tries = 0; offline; tries++) {
      await sleep(outageDelay(tries));
      if (!offline) break;
      if (await serverAnswers()) reportReachable();
    }
  } finally {
    polling = false;
  }
}
