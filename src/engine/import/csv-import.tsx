import { UploadOutlined } from '@ant-design/icons';
import { useInvalidate } from '@refinedev/core';
import { Alert, Button, Checkbox, Modal, Progress, Result, Select, Space, Steps, Table, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import type { ImportJobAnswer, ImportReportAnswer } from '../../../domain/answers/imports';
import type { ImportRowError } from '../../../domain/errors';
import type { FieldDef, ResourceDef } from '../../../domain/fields';
import { normalizeSearch } from '../../../domain/text';
import { parseCsv } from '../list/csv';
import { labelOf, parseDate } from '../fields/format';
import { ApiError, toApiError } from '../../providers/http';
import { fetchJson, uploadWithProgress } from '../../providers/transfer';
import { errorText } from '../../providers/errors';
import { loadAllLanguages, translations, useT, type Translate } from '../../providers/i18nProvider';

const MAX_ROWS = 5000;

export interface ImportTarget {
  /** 'first_name' or 'custom_fields.school'. */
  key: string;
  label: string;
  field: FieldDef;
  custom: boolean;
}

/** What an import answers (domain/answers/imports.ts): rows created, rows skipped, each refused row. */
type ImportAnswer = z.infer<typeof ImportReportAnswer>;

/** Every translation of an enum value (el and en), folded, for matching what people typed. */
function enumMatch(field: FieldDef, cell: string): string | undefined {
  const folded = normalizeSearch(cell);
  return (field.options ?? []).find((o) => {
    if (normalizeSearch(o) === folded) return true;
    return Object.values(translations).some((tree) => {
      const enums = (tree as { enums?: Record<string, string> }).enums;
      return enums?.[o] !== undefined && normalizeSearch(enums[o]) === folded;
    });
  });
}

const YES = ['1', 'true', 'yes', 'y', 'ναι', 'ν', 'x', '✓'];
const NO = ['0', 'false', 'no', 'n', 'οχι', 'ο'];

/** One CSV cell as the API wants the field's value; an unreadable cell goes as typed (the server names the problem). */
export function cellValue(field: FieldDef, cell: string): unknown {
  const s = cell.trim();
  if (s === '') return undefined;
  switch (field.type) {
    case 'NUMBER': {
      const n = Number(s.replace(/\./g, '').replace(',', '.'));
      const plainNumber = Number(s);
      if (/^-?\d+$/.test(s)) return Number(s);
      return Number.isFinite(plainNumber) && !s.includes(',') ? plainNumber : Number.isFinite(n) ? n : s;
    }
    case 'DATE':
      return parseDate(s) ?? s;
    case 'REFERENCE':
      return /^\d{1,10}$/.test(s) ? Number(s) : s;
    case 'BOOLEAN': {
      const folded = normalizeSearch(s);
      return YES.includes(folded) ? true : NO.includes(folded) ? false : s;
    }
    case 'ENUM':
      return enumMatch(field, s) ?? s;
    case 'SINGLE_CHOICE':
      return field.options?.find((o) => normalizeSearch(o) === normalizeSearch(s)) ?? s;
    case 'MULTIPLE_CHOICE':
      return s
        .split(/[|,;]/)
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => field.options?.find((o) => normalizeSearch(o) === normalizeSearch(part)) ?? part);
    default:
      return s;
  }
}

/** The student create body of one CSV row under a column mapping (column index -> target key). */
export function rowBody(cells: readonly string[], mapping: readonly (string | null)[], targets: ReadonlyMap<string, ImportTarget>) {
  const body: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  mapping.forEach((key, column) => {
    const target = key ? targets.get(key) : undefined;
    if (!target) return;
    const value = cellValue(target.field, cells[column] ?? '');
    if (value === undefined) return;
    if (target.custom) custom[target.field.name] = value;
    else body[target.field.name] = value;
  });
  if (Object.keys(custom).length) body.custom_fields = custom;
  return body;
}

/** Which target a CSV header names: the field's name, key or label in any language. */
export function guessTarget(header: string, targets: readonly ImportTarget[], labelsOf: (t: ImportTarget) => string[]): string | null {
  const folded = normalizeSearch(header).replace(/[\s_-]+/g, ' ');
  const hit = targets.find((target) => labelsOf(target).some((l) => normalizeSearch(l).replace(/[\s_-]+/g, ' ') === folded));
  return hit?.key ?? null;
}

function answerOf(body: unknown): ImportAnswer | null {
  const b = body as (Partial<ImportAnswer> & { error?: { details?: { errors?: ImportRowError[] } } }) | undefined;
  const errors = b?.errors ?? b?.error?.details?.errors;
  return Array.isArray(errors) ? { created: b?.created ?? 0, skipped: b?.skipped ?? 0, errors } : null;
}

type Stage = 'file' | 'map' | 'done';

type ImportJob = z.infer<typeof ImportJobAnswer>;

/** The answer a long import's job ends with: its report, or its refusal thrown as a short import's would be. */
async function jobOutcome(resource: string, started: ImportJob, onProgress: (job: ImportJob) => void): Promise<ImportAnswer> {
  let job = started;
  while (job.status === 'checking' || job.status === 'creating') {
    onProgress(job);
    await new Promise((resolve) => setTimeout(resolve, 500));
    job = await fetchJson<ImportJob>(`/api/${resource}/import?job=${encodeURIComponent(job.job)}`);
  }
  onProgress(job);
  if (job.status === 'done' && job.report) return job.report;
  const error = job.error ?? { code: 'internal', message: 'The import failed.' };
  throw new ApiError(0, error.code, error.message, (error.fields ?? {}) as Record<string, string>, { error }, {});
}

/** The fields of a declaration a CSV may fill: writable ones, not lists of references or objects. */
export const importTargets = (t: Translate, def: ResourceDef): ImportTarget[] =>
  def.fields
    .filter((f) => !f.readOnly && !['REFERENCES', 'CUSTOM_VALUES', 'PASSWORD'].includes(f.type))
    .map((field) => ({ key: field.name, label: labelOf(t, def, field), field, custom: false }));

interface ImportProps {
  /** The API resource: rows go to `/api/<resource>/import`. */
  resource: string;
  targets: readonly ImportTarget[];
  open: boolean;
  onClose(): void;
  /** The modal's title and the file hint; the students' by default. */
  title?: string;
  hint?: string;
  /** Rows of another resource than students (a custom entity): its name, for the messages. */
  recordsOf?: string;
}

/**
 * "Import from CSV": choose a file, map its columns, check (dry run), then import all or
 * nothing (or skip the invalid rows), with the report of what went in.
 */
export function CsvImport({ resource, targets, open, onClose, title, hint, recordsOf }: ImportProps) {
  const { t, i18n } = useT();
  const invalidate = useInvalidate();
  const [stage, setStage] = useState<Stage>('file');
  const [fileName, setFileName] = useState('');
  const [header, setHeader] = useState<string[]>([]);
  const [rows, setRows] = useState<string[][]>([]);
  const [mapping, setMapping] = useState<(string | null)[]>([]);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [checked, setChecked] = useState<ImportAnswer | null>(null);
  const [result, setResult] = useState<ImportAnswer | null>(null);
  const [busy, setBusy] = useState<null | 'check' | 'import'>(null);
  const [percent, setPercent] = useState(0);
  // a long import, worked by the server in the background: how far it has come
  const [working, setWorking] = useState<ImportJob | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const byKey = useMemo(() => new Map(targets.map((x) => [x.key, x])), [targets]);
  const labelsOf = (target: ImportTarget) => [
    target.field.name,
    target.label,
    ...(target.custom ? [] : Object.keys(translations).map((lng) => i18n.t(target.field.label ?? `${resource}.fields.${target.field.name}`, { lng }))),
  ];

  const reset = () => {
    setStage('file');
    setFileName('');
    setHeader([]);
    setRows([]);
    setMapping([]);
    setChecked(null);
    setResult(null);
    setProblem(null);
    setPercent(0);
  };

  const read = async (file: File) => {
    reset();
    // Headers and values are recognised in every language, so every language's strings are needed.
    await loadAllLanguages().catch(() => undefined);
    const parsed = parseCsv(await file.text());
    if (parsed.length < 2) {
      setProblem(t(recordsOf ? 'import.recordsEmptyFile' : 'import.emptyFile'));
      return;
    }
    const [first, ...rest] = parsed;
    if (rest.length > MAX_ROWS) {
      setProblem(t('import.tooMany', { max: MAX_ROWS }));
      return;
    }
    setFileName(file.name);
    setHeader(first!);
    setRows(rest);
    setMapping(first!.map((h) => guessTarget(h, targets, labelsOf)));
    setStage('map');
  };

  const bodies = () => rows.map((cells) => rowBody(cells, mapping, byKey));

  const send = async (dryRun: boolean) => {
    setBusy(dryRun ? 'check' : 'import');
    setProblem(null);
    setPercent(0);
    setWorking(null);
    try {
      // a long file's rows take a while to send: the bar shows how far they have gone
      const answer = await uploadWithProgress<ImportAnswer | ImportJob>(
        `/api/${resource}/import`,
        { rows: bodies(), skip_invalid: skipInvalid, dry_run: dryRun },
        { onProgress: (loaded, total) => setPercent(total ? Math.min(90, Math.round((loaded / total) * 90)) : 50) },
      );
      // a long import answers at once and goes on on the server: sending is the first 30 %,
      // checking the rows the next 30 %, creating them the rest
      const data =
        'job' in answer
          ? await jobOutcome(resource, answer, (job) => {
              setWorking(job);
              const share = (n: number) => (job.total ? n / job.total : 1);
              setPercent(Math.round(30 + 30 * share(job.checked) + (dryRun ? 40 * share(job.checked) : 40 * share(job.created))));
            })
          : answer;
      setPercent(100);
      if (dryRun) setChecked({ created: data.created, skipped: data.skipped, errors: data.errors ?? [] });
      else {
        setResult({ created: data.created, skipped: data.skipped, errors: data.errors ?? [] });
        setStage('done');
        await invalidate({ resource, invalidates: ['list'] });
      }
    } catch (error) {
      const apiError = toApiError(error);
      const answer = answerOf(apiError.body);
      if (answer) {
        setChecked(answer);
        if (!dryRun) setProblem(t(recordsOf ? 'import.recordsNothingWritten' : 'import.nothingWritten'));
      } else setProblem(errorText(apiError));
    } finally {
      setBusy(null);
      setWorking(null);
    }
  };

  const mapped = mapping.some(Boolean);
  const missing = targets.filter((x) => !x.custom && x.field.required && !mapping.includes(x.key)).map((x) => x.label);
  const errorRows = (checked?.errors ?? []).flatMap((e) =>
    Object.entries(e.fields).map(([key, code]) => ({
      key: `${e.row}-${key}`,
      line: e.row + 2, // the header is line 1
      field: byKey.get(key)?.label ?? (key.startsWith('custom_fields.') ? key.slice(14) : t(`${resource}.fields.${key}`, { defaultValue: key })),
      problem: t(`fields.${code}`, { defaultValue: code }),
    })),
  );
  const invalidCount = new Set((checked?.errors ?? []).map((e) => e.row)).size;
  const preview = rows.slice(0, 5);

  return (
    <Modal
      open={open}
      width={960}
      title={title ?? t('import.title')}
      onCancel={() => {
        if (busy) return;
        reset();
        onClose();
      }}
      footer={null}
      destroyOnHidden
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Steps
          size="small"
          current={stage === 'file' ? 0 : stage === 'map' ? 1 : 2}
          items={[{ title: t('import.stepFile') }, { title: t('import.stepMap') }, { title: t('import.stepDone') }]}
        />
        {problem && <Alert type="error" showIcon message={problem} />}
        {stage === 'file' && (
          <Space direction="vertical">
            <Typography.Paragraph type="secondary">{hint ?? t('import.fileHint')}</Typography.Paragraph>
            <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={(file) => (void read(file), false)}>
              <Button icon={<UploadOutlined />}>{t('import.chooseFile')}</Button>
            </Upload>
          </Space>
        )}
        {stage === 'map' && (
          <>
            <Typography.Text>{t('import.fileSummary', { name: fileName, count: rows.length })}</Typography.Text>
            <div style={{ overflowX: 'auto' }}>
              <Table
                size="small"
                pagination={false}
                rowKey={(_, i) => String(i)}
                dataSource={preview.map((cells, i) => ({ i, cells }))}
                columns={header.map((h, column) => ({
                  key: column,
                  title: (
                    <Space direction="vertical" size={4}>
                      <Typography.Text strong>{h}</Typography.Text>
                      <Select
                        size="small"
                        style={{ minWidth: 160 }}
                        aria-label={h}
                        value={mapping[column] ?? ''}
                        onChange={(v: string) => {
                          setMapping((m) => m.map((x, j) => (j === column ? v || null : x === v && v ? null : x)));
                          setChecked(null);
                        }}
                        options={[{ value: '', label: t('import.ignore') }, ...targets.map((x) => ({ value: x.key, label: x.label }))]}
                      />
                    </Space>
                  ),
                  render: (_: unknown, r: { cells: string[] }) => r.cells[column] ?? '',
                }))}
              />
            </div>
            {missing.length > 0 && <Alert type="warning" showIcon message={t('import.missingRequired', { fields: missing.join(', ') })} />}
            <Checkbox checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)}>
              {t('import.skipInvalid')}
            </Checkbox>
            <Typography.Text type="secondary">{skipInvalid ? t('import.skipHint') : t('import.allOrNothing')}</Typography.Text>
            {busy && <Progress percent={percent} status="active" />}
            {busy && working && (
              <Typography.Text type="secondary" data-testid="import-progress">
                {t('import.working', { count: working.total, checked: working.checked, created: working.created })}
              </Typography.Text>
            )}
            {checked && (
              <Alert
                type={checked.errors.length ? 'warning' : 'success'}
                showIcon
                message={
                  checked.errors.length ? t('import.invalidRows', { count: invalidCount, total: rows.length }) : t('import.allValid', { count: rows.length })
                }
              />
            )}
            {errorRows.length > 0 && (
              <Table
                size="small"
                rowKey="key"
                pagination={{ pageSize: 10 }}
                dataSource={errorRows}
                columns={[
                  { dataIndex: 'line', title: t('import.line'), width: 80 },
                  { dataIndex: 'field', title: t('import.field') },
                  { dataIndex: 'problem', title: t('import.problem') },
                ]}
              />
            )}
            <Space>
              <Button onClick={reset} disabled={busy !== null}>
                {t('import.otherFile')}
              </Button>
              <Button onClick={() => void send(true)} loading={busy === 'check'} disabled={!mapped || busy !== null}>
                {t('import.check')}
              </Button>
              <Button
                type="primary"
                onClick={() => void send(false)}
                loading={busy === 'import'}
                disabled={!mapped || busy !== null || (!skipInvalid && Boolean(checked?.errors.length))}
              >
                {t('import.run', { count: rows.length })}
              </Button>
            </Space>
          </>
        )}
        {stage === 'done' && result && (
          <Result
            status={result.skipped ? 'warning' : 'success'}
            title={recordsOf ? t('import.recordsCreated', { count: result.created, name: recordsOf }) : t('import.created', { count: result.created })}
            subTitle={result.skipped ? t('import.skipped', { count: result.skipped }) : undefined}
            extra={
              <Button
                type="primary"
                onClick={() => {
                  reset();
                  onClose();
                }}
              >
                {t('buttons.close')}
              </Button>
            }
          />
        )}
      </Space>
    </Modal>
  );
}
