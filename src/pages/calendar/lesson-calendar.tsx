import { useList, useUpdate } from '@refinedev/core';
import { App, Grid, Spin, theme } from 'antd';
import dayjs from 'dayjs';
import { createContext, useCallback, useContext, useMemo, useState, type CSSProperties, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';
import { Calendar, type SlotInfo } from 'react-big-calendar';
import * as dragAndDrop from 'react-big-calendar/lib/addons/dragAndDrop';
import type { EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import { decodeCalendar } from '../../../domain/calendar';
import { conflictsOf, LessonConflicts } from '../../components/lesson-conflicts';
import type { ProviderError } from '../../providers/dataProvider';
import { providerError, QUIET, useCalendarLessons, useRefreshLessons, type CalendarQuery } from '../../resources/lessons/api';
import { keepsAllLessons, useRole } from '../../resources/lessons/status';
import type { Lesson } from '../../resources/lessons/types';
import { NO_ROOM, toEvent, type CalendarEvent } from './events';
import { LessonEvent } from './lesson-event';
import { FORMATS, localizer, messages, visibleRange, VIEWS, type CalendarView } from './localizer';
import './rbc-styles';
import './calendar.css';
import { useT } from '../../providers/i18nProvider';

// The add-on is CommonJS only: depending on the bundler's interop its function is the module's
// default or the default's default.
type WithDnD = typeof dragAndDrop.default;
const interop = dragAndDrop as unknown as { default: WithDnD | { default: WithDnD } };
const withDragAndDrop: WithDnD = typeof interop.default === 'function' ? interop.default : interop.default.default;
const DnDCalendar = withDragAndDrop<CalendarEvent, CalendarRoom>(Calendar);

interface CalendarRoom {
  id: number;
  title: string;
}

export type CalendarFilters = Pick<CalendarQuery, 'teacher_id' | 'class_id' | 'room_id' | 'subject_id'>;

const STATE_KEY = 'frontis.calendar';
/** A phone shows one day (its rooms side by side); a wider screen a week. */
const defaultView = (): CalendarView => (typeof matchMedia === 'function' && matchMedia('(max-width: 575px)').matches ? 'day' : 'week');
function storedState(): { view: CalendarView; date: Date } {
  try {
    const raw = JSON.parse(sessionStorage.getItem(STATE_KEY) ?? 'null') as { view?: string; date?: string } | null;
    if (raw && VIEWS.includes(raw.view as CalendarView) && raw.date && dayjs(raw.date).isValid())
      return { view: raw.view as CalendarView, date: dayjs(raw.date).toDate() };
  } catch {
    // nothing stored
  }
  return { view: defaultView(), date: new Date() };
}

/** The calendar's colours from the theme's tokens (light or dark), as CSS variables for calendar.css. */
function useCalendarColours(): CSSProperties {
  const { token } = theme.useToken();
  return useMemo(
    () =>
      ({
        '--calendar-grid': token.colorBorder,
        '--calendar-grid-faint': token.colorSplit,
        '--calendar-today': token.colorPrimaryBg,
        '--calendar-off-range': token.colorFillQuaternary,
        '--calendar-hover': token.colorFillSecondary,
        '--calendar-selection': token.colorPrimaryBgHover,
        '--calendar-now': token.colorError,
        '--calendar-link': token.colorLink,
        '--calendar-text': token.colorText,
        '--calendar-text-secondary': token.colorTextTertiary,
      }) as CSSProperties,
    [token],
  );
}

const accessors = {
  tooltip: (e: CalendarEvent) => e.tooltip,
  draggable: (e: CalendarEvent) => e.draggable,
  resource: (e: CalendarEvent) => e.roomId,
  propGetter: (e: CalendarEvent) => ({ className: e.className, style: e.style }),
  allDay: () => false,
};
/** A day's name above its column: plain text (the calendar's own puts a columnheader role inside a button, with no grid around it). */
const DayHeader = ({ label }: { label: ReactNode }) => <span>{label}</span>;
/** A weekday above the month's grid: the header cell of its column, as the grid's header row (role row) needs. */
// biome-ignore lint/a11y/useSemanticElements: the month's grid is react-big-calendar's divs with ARIA roles, not a table
// biome-ignore lint/a11y/useFocusableInteractive: a column's header is read, not operated (the day's number opens the day)
const MonthDayHeader = ({ label }: { label: ReactNode }) => <span role="columnheader">{label}</span>;
const components = { event: LessonEvent, header: DayHeader, month: { header: MonthDayHeader }, showMore: MonthShowMore };

/** What a month day's "+N more" does and says (the calendar hands it only the day and the count). */
const ShowMoreContext = createContext<{ open(day: Date): void; text(count: number): ReactNode }>({ open: () => undefined, text: String });

/**
 * A month day's "+N more": the calendar's own is a bare button in the week's row (role row),
 * which may hold only cells; here it is a cell of its own, and it opens that day.
 */
function MonthShowMore({ slotDate, count }: { slotDate: Date; count: number }) {
  const { open, text } = useContext(ShowMoreContext);
  return (
    // no box of its own (display: contents): the button sits in the day's cell exactly where the
    // calendar's own would, so it counts the lessons that fit as it always has
    // biome-ignore lint/a11y/useSemanticElements: the month's grid is react-big-calendar's divs with ARIA roles, not a table
    // biome-ignore lint/a11y/useFocusableInteractive: the cell holds the button, which takes the focus
    <div role="gridcell" style={{ display: 'contents' }}>
      <button
        type="button"
        className="rbc-button-link rbc-show-more"
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          open(slotDate);
        }}
      >
        {text(count)}
      </button>
    </div>
  );
}

const hourOf = (time: string, up: boolean) => Number(time.slice(0, 2)) + (up && time.slice(3, 5) !== '00' ? 1 : 0);
const localIso = (d: Date) => dayjs(d).format('YYYY-MM-DDTHH:mm');

interface LessonCalendarProps {
  filters: CalendarFilters;
  onOpen(id: number): void;
  onSlot(slot: Record<string, string>): void;
}

/**
 * The home calendar (react-big-calendar): day, week and month; rooms as the day view's columns;
 * lessons coloured by type with their status; a slot opens the create drawer, a lesson its view;
 * drag and drop moves or resizes a lesson (PATCH with its version; a conflict puts it back).
 */
export function LessonCalendar({ filters, onOpen, onSlot }: LessonCalendarProps) {
  const { t, i18n } = useT();
  const { modal, message } = App.useApp();
  const refresh = useRefreshLessons();
  const { mutateAsync: update } = useUpdate<Lesson, ProviderError>();
  const staff = keepsAllLessons(useRole());
  const [{ view, date }, setState] = useState(storedState);
  const colours = useCalendarColours();
  const phone = Grid.useBreakpoint().sm === false;
  const [moved, setMoved] = useState<ReadonlyMap<number, { start: Date; end: Date; roomId: number }>>(new Map());
  const range = visibleRange(view, date);

  const save = useCallback((next: { view: CalendarView; date: Date }) => {
    setState(next);
    try {
      sessionStorage.setItem(STATE_KEY, JSON.stringify({ view: next.view, date: dayjs(next.date).format('YYYY-MM-DD') }));
    } catch {
      // not kept
    }
  }, []);

  const { query } = useCalendarLessons({ ...range, ...filters });

  const rooms = useList<{ id: number; name: string }>({
    resource: 'rooms',
    pagination: { currentPage: 1, pageSize: 200, mode: 'server' },
    sorters: [{ field: 'name', order: 'asc' }],
    queryOptions: { enabled: view === 'day' },
  });
  const resources = useMemo<CalendarRoom[] | undefined>(() => {
    if (view !== 'day') return undefined;
    const chosen = filters.room_id?.length ? new Set(filters.room_id) : null;
    const list = (rooms.result.data ?? []).filter((r) => !chosen || chosen.has(r.id)).map((r) => ({ id: r.id, title: r.name }));
    return [...list, { id: NO_ROOM, title: t('lessons.noRoom') }];
  }, [view, rooms.result.data, filters.room_id, t]);

  const language = i18n.language;
  // the compact answer (a row per lesson, each label once) back into lessons
  const decoded = useMemo(() => (query.data?.data ? decodeCalendar(query.data.data) : []), [query.data]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the texts follow the language, not the t function's identity
  const base = useMemo(() => decoded.map((lesson) => toEvent(lesson, t, staff)), [decoded, language, staff]);
  const events = useMemo(() => (moved.size ? base.map((e) => (moved.has(e.id) ? { ...e, ...moved.get(e.id)! } : e)) : base), [base, moved]);

  // 08:00 to 22:00, stretched to show any lesson outside it
  const { min, max } = useMemo(() => {
    let low = 8;
    let high = 22;
    for (const e of base) {
      low = Math.min(low, hourOf(e.lesson.start_time, false));
      high = Math.max(high, hourOf(e.lesson.end_time, true));
    }
    const day = new Date(1970, 0, 1);
    return { min: new Date(day.getFullYear(), 0, 1, low, 0), max: new Date(day.getFullYear(), 0, 1, Math.min(high, 23), high >= 24 ? 59 : 0) };
  }, [base]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the texts follow the language
  const msgs = useMemo(() => messages(t), [t, language]);

  const onDrillDown = useCallback((day: Date) => save({ view: 'day', date: day }), [save]);
  const showMore = useMemo(() => ({ open: onDrillDown, text: (count: number) => msgs.showMore?.(count, [], []) }), [onDrillDown, msgs]);
  const onSelectEvent = useCallback((e: CalendarEvent) => onOpen(e.id), [onOpen]);
  // A focused lesson opens with Enter or Space, as a click would.
  const onKeyPressEvent = useCallback(
    (e: CalendarEvent, event: SyntheticEvent<HTMLElement>) => {
      const { key } = event as KeyboardEvent<HTMLElement>;
      if (key !== 'Enter' && key !== ' ') return;
      event.preventDefault();
      onOpen(e.id);
    },
    [onOpen],
  );
  const onSelectSlot = useCallback(
    (slot: SlotInfo) => {
      const params: Record<string, string> = { start: localIso(slot.start), end: localIso(slot.end) };
      const roomId = typeof slot.resourceId === 'number' ? slot.resourceId : undefined;
      if (roomId !== undefined && roomId !== NO_ROOM) {
        params.roomId = String(roomId);
        params.roomName = resources?.find((r) => r.id === roomId)?.title ?? '';
      }
      onSlot(params);
    },
    [onSlot, resources],
  );

  const move = useCallback(
    async ({ event, start, end, resourceId }: EventInteractionArgs<CalendarEvent>) => {
      const from = new Date(start);
      const to = new Date(end);
      if (!dayjs(from).isSame(dayjs(to).subtract(1, 'minute'), 'day') || to <= from) {
        message.warning(t('lessons.sameDayOnly'));
        return;
      }
      const roomId = typeof resourceId === 'number' ? resourceId : event.roomId;
      const body: Record<string, unknown> = {
        date: dayjs(from).format('YYYY-MM-DD'),
        start_time: dayjs(from).format('HH:mm'),
        end_time: dayjs(to).format('HH:mm'),
        version: event.lesson.version,
      };
      if (roomId !== event.roomId) body.room_id = roomId === NO_ROOM ? null : roomId;
      setMoved((m) => new Map(m).set(event.id, { start: from, end: to, roomId }));
      const forget = () =>
        setMoved((m) => {
          const copy = new Map(m);
          copy.delete(event.id);
          return copy;
        });
      try {
        await update({ resource: 'lessons', id: event.id, values: body, ...QUIET });
        message.success(t('lessons.moved'));
        await refresh();
        forget();
      } catch (error) {
        forget();
        const failure = providerError(error);
        const lessons = conflictsOf(failure);
        modal.error({
          title: t('lessons.moveFailed'),
          width: 560,
          content: lessons ? <LessonConflicts lessons={lessons} /> : failure.message,
        });
        if (!lessons) void refresh();
      }
    },
    [message, modal, refresh, update, t],
  );

  const settled = !query.isFetching;
  return (
    <div className="lesson-calendar-wrap" style={colours}>
      {!settled && <Spin className="lesson-calendar-loading" size="small" />}
      <div className="lesson-calendar" data-testid="lesson-calendar" data-loading={settled ? 'false' : 'true'} data-view={view} data-count={events.length}>
        {query.isError && (
          <div role="alert" style={{ color: '#cf1322', marginBottom: 8 }}>
            {providerError(query.error).message}
          </div>
        )}
        <ShowMoreContext.Provider value={showMore}>
          <DnDCalendar
            localizer={localizer}
            events={events}
            view={view}
            views={VIEWS}
            date={date}
            onView={(next) => save({ view: next as CalendarView, date })}
            onNavigate={(next, nextView) => save({ view: (nextView as CalendarView) ?? view, date: next })}
            // a month's day number and its "+N more" open that day (one state change: the
            // calendar's own drill-down would report the view and then the date with the old view)
            onDrillDown={onDrillDown}
            messages={msgs}
            formats={FORMATS}
            culture={language}
            min={min}
            max={max}
            scrollToTime={min}
            step={30}
            timeslots={2}
            style={{ height: phone ? 'calc(100vh - 200px)' : 'calc(100vh - 250px)', minHeight: phone ? 480 : 560 }}
            components={components}
            eventPropGetter={accessors.propGetter}
            tooltipAccessor={accessors.tooltip}
            allDayAccessor={accessors.allDay}
            resources={resources}
            resourceAccessor={resources ? accessors.resource : undefined}
            resourceIdAccessor="id"
            resourceTitleAccessor="title"
            selectable={staff}
            onSelectEvent={onSelectEvent}
            onKeyPressEvent={onKeyPressEvent}
            onSelectSlot={onSelectSlot}
            draggableAccessor={accessors.draggable}
            resizableAccessor={accessors.draggable}
            // resize handles are four elements per event: only in the day view, a week stays light
            resizable={staff && view === 'day'}
            onEventDrop={move}
            onEventResize={move}
            popup={false}
            dayLayoutAlgorithm="no-overlap"
          />
        </ShowMoreContext.Provider>
      </div>
    </div>
  );
}
