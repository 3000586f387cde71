import { DownloadOutlined } from '@ant-design/icons';
import type { CrudFilters, CrudSorting } from '@refinedev/core';
import { App, Button, Modal, Progress, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_PAGE_ROWS, type ResourceDef } from '../../../domain/fields';
import { dataProvider } from '../../providers/dataProvider';
import { errorText } from '../../providers/errors';
import { buildCsv, csvDelimiter, csvNumber } from './csv';
import { fieldText, labelOf } from '../fields/format';
import type { Translate } from '../../providers/i18nProvider';

export interface CsvColumn {
  header: string;
  text(row: Record<string, unknown>): string;
  /** For amounts and numbers: the value, written as a number the spreadsheet reads (decimal comma in Greek); money in cents. */
  number?(row: Record<string, unknown>): { value: number; money: boolean } | null;
}

/** A column's cell in the export: a number as the language's spreadsheet reads it, else the table's text. */
export function csvCell(column: CsvColumn, row: Record<string, unknown>, language: string): string {
  const n = column.number?.(row);
  if (n === undefined) return column.text(row);
  if (n === null) return '';
  return n.money ? csvNumber(n.value / 100, language, 2) : csvNumber(n.value, language);
}

const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** A resource's exported columns: its id and every field a reader may see, as the table shows it. */
export const resourceCsvColumns = (t: Translate, def: ResourceDef): CsvColumn[] => [
  { header: 'id', text: (row) => String(row.id) },
  ...def.fields
    .filter((f) => !f.writeOnly && f.type !== 'CUSTOM_VALUES')
    .map(
      (f): CsvColumn => ({
        header: labelOf(t, def, f),
        text: (row) => fieldText(t, f, row),
        ...(f.type === 'MONEY' || f.type === 'NUMBER'
          ? {
              number: (row: Record<string, unknown>) => {
                const value = numberOf(row[f.name]);
                return value === null ? null : { value, money: f.type === 'MONEY' };
              },
            }
          : {}),
      }),
    ),
];

/** Every row matching `filters` and `sorters`, 200 per call; `onProgress(done, total)` after each page. */
async function fetchAllRows(
  resource: string,
  filters: CrudFilters,
  sorters: CrudSorting,
  onProgress: (done: number, total: number) => void,
  cancelled: () => boolean = () => false,
): Promise<Record<string, unknown>[] | null> {
  const rows: Record<string, unknown>[] = [];
  let total = Infinity;
  for (let page = 1; rows.length < total; page++) {
    if (cancelled()) return null;
    const answer = await dataProvider.getList({ resource, filters, sorters, pagination: { currentPage: page, pageSize: MAX_PAGE_ROWS, mode: 'server' } });
    rows.push(...(answer.data as Record<string, unknown>[]));
    total = answer.total;
    onProgress(rows.length, total);
    if (answer.data.length < MAX_PAGE_ROWS) break;
  }
  return rows;
}

export function download(fileName: string, content: string | Blob, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(typeof content === 'string' ? new Blob([content], { type }) : content);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface Props {
  resource: string;
  fileName: string;
  columns: CsvColumn[];
  filters: CrudFilters;
  sorters: CrudSorting;
}

/** Exports the list as it is filtered and sorted, all pages, with a progress bar. */
export function ExportCsvButton({ resource, fileName, columns, filters, sorters }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const cancelled = useRef(false);

  const run = async () => {
    cancelled.current = false;
    setProgress({ done: 0, total: 0 });
    try {
      const rows = await fetchAllRows(
        resource,
        filters,
        sorters,
        (done, total) => setProgress({ done, total }),
        () => cancelled.current,
      );
      if (!rows) return;
      // Greek Excel splits on ';' and reads 1335,00 as a number (docs/rules.md, Exports).
      const csv = buildCsv(
        columns.map((c) => c.header),
        rows.map((row) => columns.map((c) => csvCell(c, row, i18n.language))),
        csvDelimiter(i18n.language),
      );
      download(`${fileName}-${new Date().toISOString().slice(0, 10)}.csv`, csv);
      message.success(t('directory.exported', { count: rows.length }));
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setProgress(null);
    }
  };

  const percent = progress?.total ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <>
      <Button icon={<DownloadOutlined />} onClick={() => void run()} loading={progress !== null}>
        {t('directory.exportCsv')}
      </Button>
      <Modal
        open={progress !== null}
        title={t('directory.exporting')}
        closable={false}
        maskClosable={false}
        okButtonProps={{ style: { display: 'none' } }}
        cancelText={t('buttons.cancel')}
        onCancel={() => {
          cancelled.current = true;
          setProgress(null);
        }}
      >
        <Progress percent={percent} status="active" />
        <Typography.Text type="secondary">{t('directory.exportProgress', { done: progress?.done ?? 0, count: progress?.total ?? 0 })}</Typography.Text>
      </Modal>
    </>
  );
}
