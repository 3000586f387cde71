import { Drawer, Grid } from 'antd';
import { createContext, type ReactNode, type SyntheticEvent, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useDiscardQuestion, useLeaveGuard } from './form/leave-guard';
import { useSearchParams } from 'react-router';
import './mode-drawer.css';

/**
 * The URL is the state: `?mode=update&user=5` opens the drawer of user 5,
 * so reloading or sharing the link opens the same drawer. Modes outside `modes` are ignored.
 */
export function useModeParams<M extends string>(entity: string, modes: readonly M[]) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('mode');
  const mode = raw && (modes as readonly string[]).includes(raw) ? (raw as M) : null;
  const rawId = params.get(entity);
  const id = rawId && /^\d+$/.test(rawId) ? Number(rawId) : null;

  // The URL as it is now, not as this render saw it: a button rendered before the list wrote
  // its filters to the URL (antd keeps unchanged rows) must not put the old query back.
  const open = useCallback(
    (next: M, nextId?: number) =>
      setParams(() => {
        const copy = new URLSearchParams(window.location.search);
        copy.set('mode', next);
        if (nextId === undefined) copy.delete(entity);
        else copy.set(entity, String(nextId));
        return copy;
      }),
    [entity, setParams],
  );
  const close = useCallback(
    () =>
      setParams(() => {
        const copy = new URLSearchParams(window.location.search);
        copy.delete('mode');
        copy.delete(entity);
        return copy;
      }),
    [entity, setParams],
  );
  return { mode, id, open, close };
}

/**
 * The whole screen on a phone; on wider screens room for a form's two-word labels and for a
 * view's tabs (details, lessons, history…) side by side without folding them into "more".
 */
function drawerWidth(screens: Partial<Record<'sm' | 'md' | 'lg' | 'xl', boolean>>): number | string {
  if (screens.sm === false) return '100%';
  if (screens.xl) return 760;
  if (screens.lg) return 680;
  return screens.md ? 600 : '100%';
}

/** What a drawer's form tells its drawer: whether it holds changes not saved yet. */
interface DrawerGuard {
  /** Registers the form's "changed?" check; answers the unregister. */
  watch(changed: () => boolean): () => void;
  /** Runs `close` at once when nothing changed, else after the user agrees to discard. */
  requestClose(close: () => void): void;
}

const DrawerGuardContext = createContext<DrawerGuard | null>(null);

/** The enclosing drawer's guard (null outside a ModeDrawer). */
export const useDrawerGuard = () => useContext(DrawerGuardContext);

/** Tells the enclosing drawer whether the form has unsaved changes. */
export function useGuardChanges(changed: () => boolean) {
  const guard = useDrawerGuard();
  const check = useRef(changed);
  check.current = changed;
  useEffect(() => guard?.watch(() => check.current()), [guard]);
}

/** A popup that Esc should close first: an open select or date picker, a modal, a confirm. */
const OPEN_POPUP =
  '.ant-select-dropdown:not(.ant-select-dropdown-hidden), .ant-picker-dropdown:not(.ant-picker-dropdown-hidden), .ant-dropdown:not(.ant-dropdown-hidden), .ant-modal-wrap:not([style*="display: none"])';

/** Whether an Esc belongs to something inside the drawer (a popup open, or one it just closed). */
function escBelongsToPopup(event: SyntheticEvent | undefined): boolean {
  if (event?.type !== 'keydown') return false;
  if (event.defaultPrevented) return true;
  const target = event.target as HTMLElement | null;
  if (target?.closest?.('[aria-expanded="true"]')) return true;
  return document.querySelector(OPEN_POPUP) !== null;
}

/** An open drawer that took a closing one's place, and what had opened the closing one. */
const handedOver = new WeakMap<Element, HTMLElement>();

/**
 * Once a drawer has slid away it gives the focus back to what opened it. When another drawer
 * took its place (a view's Edit opens the form as the view closes), the user is already typing
 * in the new one: pulling the focus back to the list behind would drop the rest of the typing
 * (or press the list's button with it). So at that instant the opener refuses the focus
 * (`inert`, for as long as the closing drawer's own call lasts), and is handed to the drawer
 * that took the place: when that one closes, the focus goes back there, as if the view had
 * never been replaced (the Edit button that opened it is gone). If the new drawer has not taken
 * the focus yet, it is given it.
 */
function useFocusHandover(open: boolean) {
  const panel = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  // the same moment the drawer notes its opener: when it opens, before it focuses its panel
  useLayoutEffect(() => {
    if (open) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);
  const afterOpenChange = useCallback((visible: boolean) => {
    if (visible) return;
    const target = opener.current;
    const root = panel.current?.closest('.frontis-drawer');
    const inherited = root ? handedOver.get(root) : undefined;
    if (root) handedOver.delete(root);
    if (inherited?.isConnected && (!target?.isConnected || target === document.body)) {
      queueMicrotask(() => inherited.focus({ preventScroll: true }));
      return;
    }
    // The drawer that took this one's place: the one holding the focus, else the last one open
    // (on a slow machine the view may finish sliding before the form has taken the focus).
    const others = [...document.querySelectorAll<HTMLElement>('.frontis-drawer.ant-drawer-open')].filter((d) => d !== root);
    const successor = document.activeElement?.closest<HTMLElement>('.frontis-drawer.ant-drawer-open') ?? others.at(-1);
    if (!target?.isConnected || target === document.body || target.inert || !successor) return;
    handedOver.set(successor, target);
    target.inert = true;
    queueMicrotask(() => {
      target.inert = false;
      // left nowhere (or in the drawer that slid away), the focus belongs in the drawer on top
      const at = document.activeElement;
      if (!at || at === document.body || root?.contains(at)) successor.focus({ preventScroll: true });
    });
  }, []);
  return { panel, afterOpenChange };
}

export function ModeDrawer({
  open,
  title,
  onClose,
  children,
  footer,
}: {
  open: boolean;
  title: ReactNode;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const screens = Grid.useBreakpoint();
  const checks = useRef(new Set<() => boolean>());
  const ask = useDiscardQuestion();
  const changed = () => [...checks.current].some((check) => check());
  const guard = useMemo<DrawerGuard>(
    () => ({
      watch(check) {
        checks.current.add(check);
        return () => {
          checks.current.delete(check);
        };
      },
      requestClose(close) {
        if ([...checks.current].some((check) => check())) ask(close);
        else close();
      },
    }),
    [ask],
  );
  // leaving the screen with the drawer's changes unsaved asks too
  useLeaveGuard(changed, open);
  const focus = useFocusHandover(open);
  return (
    <Drawer
      open={open}
      panelRef={focus.panel}
      afterOpenChange={focus.afterOpenChange}
      title={title}
      onClose={(event) => {
        // Esc closes the innermost popup only (a select, a date picker, a dialog), not the drawer too.
        if (escBelongsToPopup(event)) return;
        guard.requestClose(onClose);
      }}
      width={drawerWidth(screens)}
      rootClassName="frontis-drawer"
      destroyOnHidden
      footer={footer}
    >
      <DrawerGuardContext.Provider value={guard}>{children}</DrawerGuardContext.Provider>
    </Drawer>
  );
}
