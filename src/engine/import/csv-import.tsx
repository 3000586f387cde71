import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Modal, Progress, Result, Select, Space, Steps, Table, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { parseCsv } from '../list/csv';
import { loadAllLanguages, translations, useT } from '../../providers/i18nProvider';
import { guessTarget, refusedCells, rowBody, type ImportTarget } from './csv-rows';
import { useImportRun } from './import-run';

const MAX_ROWS = 5000;

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
  const run = useImportRun(resource, recordsOf);
  const { checked, result, busy, problem } = run;
  // the file read: its name, its header line and its rows
  const [file, setFile] = useState<{ name: string; header: string[]; rows: string[][] } | null>(null);
  const [mapping, setMapping] = useState<(string | null)[]>([]);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const stage = result ? 'done' : file ? 'map' : 'file';
  const header = file?.header ?? [];
  const rows = file?.rows ?? [];

  const byKey = useMemo(() => new Map(targets.map((x) => [x.key, x])), [targets]);
  const labelsOf = (target: ImportTarget) => [
    target.field.name,
    target.label,
    ...(target.custom ? [] : Object.keys(translations).map((lng) => i18n.t(target.field.label ?? `${resource}.fields.${target.field.name}`, { lng }))),
  ];

  const reset = () => {
    setFile(null);
    setMapping([]);
    run.reset();
  };
  const close = () => {
    reset();
    onClose();
  };

  const read = async (chosen: File) => {
    reset();
    // Headers and values are recognised in every language, so every language's strings are needed.
    await loadAllLanguages().catch(() => undefined);
    const [first, ...rest] = parseCsv(await chosen.text());
    if (!first || rest.length === 0) return run.setProblem(t(recordsOf ? 'import.recordsEmptyFile' : 'import.emptyFile'));
    if (rest.length > MAX_ROWS) return run.setProblem(t('import.tooMany', { max: MAX_ROWS }));
    setFile({ name: chosen.name, header: first, rows: rest });
    setMapping(first.map((h) => guessTarget(h, targets, labelsOf)));
  };

  const send = (dryRun: boolean) =>
    run.send(
      rows.map((cells) => rowBody(cells, mapping, byKey)),
      skipInvalid,
      dryRun,
    );

  const mapped = mapping.some(Boolean);
  const missing = targets.filter((x) => !x.custom && x.field.required && !mapping.includes(x.key)).map((x) => x.label);
  const errorRows = refusedCells(t, resource, byKey, checked?.errors ?? []);
  const invalidCount = new Set((checked?.errors ?? []).map((e) => e.row)).size;
  const preview = rows.slice(0, 5);

  return (
    <Modal
      open={open}
      width={960}
      title={title ?? t('import.title')}
      onCancel={() => {
        if (!busy) close();
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
            <Typography.Text>{t('import.fileSummary', { name: file?.name, count: rows.length })}</Typography.Text>
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
                          run.setChecked(null);
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
            {busy && <Progress percent={run.percent} status="active" />}
            {busy && run.working && (
              <Typography.Text type="secondary" data-testid="import-progress">
                {t('import.working', { count: run.working.total, checked: run.working.checked, created: run.working.created })}
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
              <Button type="primary" onClick={close}>
                {t('buttons.close')}
              </Button>
            }
          />
        )}
      </Space>
    </Modal>
  );
}
