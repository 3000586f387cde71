import type { TabsProps } from 'antd';
import type { ResourceDef } from '../../domain/fields';
import { LESSONS } from '../../domain/resources/lessons';
import { lessonTabs } from '../resources/lessons/lesson-tabs';
import type { Translate } from './fields/format';

type Owner = Parameters<typeof lessonTabs>[0];

/** The lessons field pointing at rows of `def` (class_id for classes, teacher_id for teachers). */
const lessonOwner = (def: ResourceDef) => LESSONS.fields.find((f) => f.type === 'REFERENCE' && f.reference === def.name)?.name as Owner | undefined;

/** The detail tabs a declaration names (`screen.tabs`), in the order of the registry. */
export function declaredTabs(def: ResourceDef, id: number, t: Translate): NonNullable<TabsProps['items']> {
  const wanted: readonly string[] = def.screen.tabs ?? [];
  if (wanted.length === 0) return [];
  const owner = lessonOwner(def);
  const lessons = owner ? lessonTabs(owner, id, t) : [];
  return lessons.filter((tab) => wanted.includes(String(tab.key)));
}
