import dayjs, { type Dayjs } from 'dayjs';

/**
 * The dates a new contract starts with: from today to the end of the school year (30 June),
 * a school year running from September to June. In July and August the coming school year is
 * meant, so it starts on 1 September.
 */
export function newContractDates(now: Dayjs = dayjs()): { start_date: string; end_date: string } {
  const today = now.startOf('day');
  const summer = today.month() === 6 || today.month() === 7;
  const start = summer ? today.month(8).date(1) : today;
  const endYear = today.month() >= 6 ? today.year() + 1 : today.year();
  return { start_date: start.format('YYYY-MM-DD'), end_date: `${endYear}-06-30` };
}
