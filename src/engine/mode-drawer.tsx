import { Drawer, Grid } from 'antd';
import { useCallback, type ReactNode } from 'react';
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
export function drawerWidth(screens: Partial<Record<'sm' | 'md' | 'lg' | 'xl', boolean>>): number | string {
  if (screens.sm === false) return '100%';
  if (screens.xl) return 760;
  if (screens.lg) return 680;
  return screens.md ? 600 : '100%';
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
  return (
    <Drawer open={open} title={title} onClose={onClose} width={drawerWidth(screens)} rootClassName="frontis-drawer" destroyOnHidden footer={footer}>
      {children}
    </Drawer>
  );
}
