import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FullPageSpin } from '../../components/full-page-spin';
import { ModeDrawer } from '../../engine/mode-drawer';
import { lazyPart } from '../../lazy';
import { useLiveLessons } from './api';
import type { LessonNavigation } from './lesson-view';
import type { Lesson } from './types';

// The forms and the lesson's page (with its history table, date and time pickers) load when a
// drawer first opens: the calendar paints without them.
const LessonForm = lazyPart(() => import('./lesson-form').then((m) => ({ default: m.LessonForm })));
const LessonView = lazyPart(() => import('./lesson-view').then((m) => ({ default: m.LessonView })));
const SeriesForm = lazyPart(() => import('./series-form').then((m) => ({ default: m.SeriesForm })));

type LessonMode = 'create' | 'update' | 'view' | 'filter' | 'bulk_update';
const DRAWER_PARAMS = ['mode', 'lesson', 'recurring_lesson', 'start', 'end', 'roomId', 'roomName', 'tab'];

const idOf = (raw: string | null) => (raw && /^\d+$/.test(raw) ? Number(raw) : null);

/** A slot's local ISO date-time ("2026-03-07T17:00") -> date and HH:mm. */
function splitLocal(value: string | null): { date?: string; time?: string } {
  const m = value ? /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}))?/.exec(value) : null;
  return m ? { date: m[1], time: m[2] } : {};
}

/**
 * The drawers for `/` and `/lessons/`, from the URL: `mode=create` (with
 * `start`, `end`, `roomId`, `roomName` from a calendar slot; with `lesson` it creates that
 * lesson's replacement), `mode=update&lesson=`, `mode=view&lesson=`,
 * `mode=bulk_update&recurring_lesson=` (a series, /lessons/ only); `tab=attendance` opens the
 * view on the lesson's attendance roster.
 */
export function useLessonParams(modes: readonly LessonMode[]) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('mode');
  const mode = raw && (modes as readonly string[]).includes(raw) ? (raw as LessonMode) : null;
  const nav = useMemo(() => {
    const go = (next: Record<string, string>) =>
      setParams((current) => {
        const copy = new URLSearchParams(current);
        for (const p of DRAWER_PARAMS) copy.delete(p);
        for (const [k, v] of Object.entries(next)) copy.set(k, v);
        return copy;
      });
    return {
      go,
      view: (id: number) => go({ mode: 'view', lesson: String(id) }),
      /** The lesson's view open on its attendance roster. */
      attendance: (id: number) => go({ mode: 'view', lesson: String(id), tab: 'attendance' }),
      edit: (id: number) => go({ mode: 'update', lesson: String(id) }),
      replace: (id: number) => go({ mode: 'create', lesson: String(id) }),
      create: (slot: Record<string, string> = {}) => go({ mode: 'create', ...slot }),
      close: () => go({}),
      seriesLink: (id: number) => `/lessons/?mode=bulk_update&recurring_lesson=${id}`,
    };
  }, [setParams]);
  return { mode, params, nav };
}

export function LessonDrawers({ modes }: { modes: readonly LessonMode[] }) {
  const { t } = useTranslation();
  const { mode, params, nav } = useLessonParams(modes);
  const lessonId = idOf(params.get('lesson'));
  const seriesId = idOf(params.get('recurring_lesson'));
  const start = params.get('start');
  const end = params.get('end');
  const roomId = idOf(params.get('roomId'));
  const roomName = params.get('roomName');

  const prefill = useMemo<Partial<Lesson>>(() => {
    const from = splitLocal(start);
    const to = splitLocal(end);
    const out: Partial<Lesson> = {};
    if (from.date) out.date = from.date;
    // a whole day (month view) gives the date only
    if (from.time && to.time && from.date === to.date) {
      out.start_time = from.time;
      out.end_time = to.time;
    }
    if (roomId !== null) {
      out.room_id = roomId;
      out.room = { id: roomId, name: roomName ?? `#${roomId}` };
    }
    return out;
  }, [start, end, roomId, roomName]);

  // both lesson screens (the calendar and the list) render these drawers: news of a changed
  // lesson reloads what they show, and the lesson open here
  useLiveLessons();
  const navigation: LessonNavigation = nav;
  const replacement = mode === 'create' && lessonId !== null;
  const formOpen = mode === 'create' || (mode === 'update' && lessonId !== null);
  const title = replacement ? t('lessons.replacement') : mode === 'update' ? t('lessons.edit') : t('lessons.create');
  return (
    <>
      <ModeDrawer open={formOpen} title={title} onClose={nav.close}>
        {formOpen && (
          <Suspense fallback={<FullPageSpin />}>
            <LessonForm
              key={`${mode}-${lessonId}-${start}-${roomId}`}
              mode={mode === 'update' ? 'update' : 'create'}
              lessonId={lessonId}
              replacement={replacement}
              prefill={prefill}
              onDone={nav.close}
            />
          </Suspense>
        )}
      </ModeDrawer>
      <ModeDrawer open={mode === 'view' && lessonId !== null} title={t('lessons.view')} onClose={nav.close}>
        {mode === 'view' && lessonId !== null && (
          <Suspense fallback={<FullPageSpin />}>
            <LessonView key={lessonId} id={lessonId} nav={navigation} tab={params.get('tab')} />
          </Suspense>
        )}
      </ModeDrawer>
      <ModeDrawer open={mode === 'bulk_update' && seriesId !== null} title={t('lessons.editSeries')} onClose={nav.close}>
        {mode === 'bulk_update' && seriesId !== null && (
          <Suspense fallback={<FullPageSpin />}>
            <SeriesForm key={seriesId} id={seriesId} onDone={nav.close} />
          </Suspense>
        )}
      </ModeDrawer>
    </>
  );
}
