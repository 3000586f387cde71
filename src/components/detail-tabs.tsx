import { Spin, type TabsProps } from 'antd';
import { lazy, Suspense } from 'react';
import type { ResourceDef } from '../../domain/fields';
import { LESSONS } from '../../domain/resources/lessons';
import { lessonTabs } from '../resources/lessons/lesson-tabs';
import type { Translate } from './fields/format';

type Owner = Parameters<typeof lessonTabs>[0];

// The money tabs load with the first view that shows them, not with every list.
const StudentMoneyTab = lazy(() => import('../resources/money/student-tabs'));

/**
 * The lessons filter naming rows of `def`: class_id for classes, teacher_id for teachers, and
 * student_id for students (the lessons of their classes, a filter the server adds).
 */
const lessonOwner = (def: ResourceDef): Owner | undefined =>
  def.name === 'students' ? 'student_id' : (LESSONS.fields.find((f) => f.type === 'REFERENCE' && f.reference === def.name)?.name as Owner | undefined);

/** A student's contracts and payments (the only owner of contracts so far). */
function moneyTabs(def: ResourceDef, id: number, t: Translate): NonNullable<TabsProps['items']> {
  if (def.name !== 'students') return [];
  return (['contracts', 'payments'] as const).map((tab) => ({
    key: tab,
    label: t(`students.tabs.${tab}`),
    children: (
      <Suspense fallback={<Spin />}>
        <StudentMoneyTab tab={tab} id={id} />
      </Suspense>
    ),
  }));
}

/** The detail tabs a declaration names (`screen.tabs`), in the declaration's order. */
export function declaredTabs(def: ResourceDef, id: number, t: Translate): NonNullable<TabsProps['items']> {
  const wanted: readonly string[] = def.screen.tabs ?? [];
  if (wanted.length === 0) return [];
  const owner = lessonOwner(def);
  const lessons = owner ? lessonTabs(owner, id, t) : [];
  return [...lessons, ...moneyTabs(def, id, t)]
    .filter((tab) => wanted.includes(String(tab.key)))
    .sort((a, b) => wanted.indexOf(String(a.key)) - wanted.indexOf(String(b.key)));
}
