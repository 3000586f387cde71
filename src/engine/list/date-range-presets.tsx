import { DatePicker } from 'antd';
import type { RangePickerProps } from 'antd/es/date-picker';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export type DateRange = [Dayjs, Dayjs];
type DateRangePreset = 'today' | 'yesterday' | 'last7Days' | 'last30Days' | 'thisMonth';

/** The quick date ranges, as of `now`; "custom range" is picking dates by hand. */
export function presetRange(preset: DateRangePreset, now: Dayjs = dayjs()): DateRange {
  const today = now.startOf('day');
  switch (preset) {
    case 'today':
      return [today, today.endOf('day')];
    case 'yesterday':
      return [today.subtract(1, 'day'), today.subtract(1, 'day').endOf('day')];
    case 'last7Days':
      return [today.subtract(6, 'day'), today.endOf('day')];
    case 'last30Days':
      return [today.subtract(29, 'day'), today.endOf('day')];
    case 'thisMonth':
      return [today.startOf('month'), today.endOf('month')];
  }
}

export const DATE_RANGE_PRESETS: readonly DateRangePreset[] = ['today', 'yesterday', 'last7Days', 'last30Days', 'thisMonth'];

type Props = Omit<RangePickerProps, 'presets' | 'value' | 'onChange'> & {
  value?: DateRange | null;
  onChange?(range: DateRange | null): void;
};

/** A date range picker with the quick ranges; picking dates by hand is the custom range. */
export function DateRangePresets({ value, onChange, ...rest }: Props) {
  const { t } = useTranslation();
  const presets = useMemo(() => DATE_RANGE_PRESETS.map((preset) => ({ label: t(`dateRange.${preset}`), value: presetRange(preset) })), [t]);
  return (
    <DatePicker.RangePicker
      {...rest}
      aria-label={t('dateRange.custom')}
      presets={presets}
      value={value ?? null}
      onChange={(range) => onChange?.(range?.[0] && range[1] ? [range[0], range[1]] : null)}
      format="DD/MM/YYYY"
    />
  );
}
