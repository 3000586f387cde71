import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ResourceDef } from '../../domain/fields';
import { http } from '../providers/http';
import { setRuntimeDeclarations } from './registry';

/** Where resources declared at run time live: `/custom-entities/entity/<slug>/`. */
export const RUNTIME_ROUTE = '/custom-entities/entity/';

const listOf = (json: unknown): unknown[] =>
  Array.isArray(json) ? json : Array.isArray((json as { data?: unknown } | null)?.data) ? (json as { data: unknown[] }).data : [];

/** The declarations in the server's JSON, checked (the checker loads only when there are some). */
async function declarationsIn(json: unknown): Promise<ResourceDef[]> {
  if (listOf(json).length === 0) return [];
  const { parseRuntimeDeclarations } = await import('./runtime-parse');
  return parseRuntimeDeclarations(json);
}

/** The server's runtime declarations (none until custom entities arrive). */
export async function fetchRuntimeDeclarations(): Promise<unknown> {
  const { data } = await http.get<unknown>('/api/resources/runtime');
  return data;
}

interface RuntimeResources {
  declarations: readonly ResourceDef[];
  /** Loads the declarations once (after sign-in; later calls do nothing). */
  load(): void;
}

const RuntimeContext = createContext<RuntimeResources>({ declarations: [], load: () => undefined });

/**
 * Holds the declarations that arrived at run time and mounts them: the access check learns
 * them, then the Refine resources and the routes follow (App reads `declarations`).
 */
export function useRuntimeResourcesState(source: () => Promise<unknown>): RuntimeResources {
  const [declarations, setDeclarations] = useState<readonly ResourceDef[]>([]);
  const started = useRef(false);
  // The next sign-in mounts a new App: nothing of this user's declarations stays behind.
  useEffect(() => () => setRuntimeDeclarations([]), []);
  const load = useCallback(() => {
    if (started.current) return;
    started.current = true;
    source()
      .then(declarationsIn)
      .then(
        (defs) => {
          setRuntimeDeclarations(defs);
          setDeclarations(defs);
        },
        (error: unknown) => console.warn('Runtime resources could not be loaded:', error),
      );
  }, [source]);
  return useMemo(() => ({ declarations, load }), [declarations, load]);
}

export function RuntimeResourcesProvider({ value, children }: { value: RuntimeResources; children: ReactNode }) {
  return <RuntimeContext.Provider value={value}>{children}</RuntimeContext.Provider>;
}

export const useRuntimeResources = () => useContext(RuntimeContext);
