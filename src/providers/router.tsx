import type { ParseResponse, RouterProvider } from '@refinedev/core';
import baseRouter from '@refinedev/react-router';
import { createContext, type ReactNode, useCallback, useContext, useMemo } from 'react';

type Parse = () => ParseResponse;

const SharedParse = createContext<Parse | null>(null);
const parseHere = baseRouter.parse as () => Parse;

/**
 * Reads the address the way Refine's react-router binding does (resource, action, id, search
 * parameters), once per address for everything below it. Every Refine button and data hook
 * asks for it, and the binding matched the path against every resource in each of them: the
 * 75 row buttons of a 25-row list did it 75 times on the list's first drawing.
 */
export function SharedAddress({ children }: { children: ReactNode }) {
  const parse = parseHere();
  const parsed = useMemo(() => parse(), [parse]);
  const shared = useCallback(() => parsed, [parsed]);
  return <SharedParse.Provider value={shared}>{children}</SharedParse.Provider>;
}

/**
 * Refine's react-router binding, its `parse` answered by the nearest SharedAddress. A part
 * drawn outside one (Refine's own, beside the app's children) reads the address itself; a
 * part never moves between the two, so the hooks each one calls stay the same.
 */
export const routerProvider: RouterProvider = {
  ...baseRouter,
  parse: () => {
    const shared = useContext(SharedParse);
    return shared ?? parseHere();
  },
};
