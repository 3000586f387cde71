import { Spin, type TabsProps } from 'antd';
import { createContext, Suspense, type ReactNode } from 'react';
import type { ResourceDef } from '../../../domain/fields';
import type { Translate } from '../../providers/i18nProvider';

/**
 * A detail tab a declaration may name in `screen.tabs` ('lessons', 'payments'…). The engine
 * knows tabs only by name: the code that shows one lives with its resource, and the app hands
 * the engine the known tabs through DetailTabsContext, so the engine imports no resource.
 */
export interface DetailTab {
  /** The i18n key of the tab's title. */
  label: string;
  /** Whether the tab applies to rows of `def` (a student has lessons but no series). */
  shows(def: ResourceDef): boolean;
  render(def: ResourceDef, id: number): ReactNode;
}

export const DetailTabsContext = createContext<Readonly<Record<string, DetailTab>>>({});

/** The detail tabs a declaration names (`screen.tabs`), in the declaration's order. */
export function declaredTabs(def: ResourceDef, id: number, t: Translate, known: Readonly<Record<string, DetailTab>>): NonNullable<TabsProps['items']> {
  return (def.screen.tabs ?? []).flatMap((name) => {
    const tab = Object.hasOwn(known, name) ? known[name] : undefined;
    if (!tab?.shows(def)) return [];
    // a tab's code loads with the first view that shows it, not with every list
    return [{ key: name, label: t(tab.label), children: <Suspense fallback={<Spin />}>{tab.render(def, id)}</Suspense> }];
  });
}
