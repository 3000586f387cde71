import { useInvalidate } from '@refinedev/core';
import { useState } from 'react';
import type { z } from 'zod';
import type { ImportJobAnswer, ImportReportAnswer } from '../../../domain/answers/imports';
import type { ImportRowError } from '../../../domain/errors';
import { ApiError, toApiError } from '../../providers/http';
import { fetchJson, uploadWithProgress } from '../../providers/transfer';
import { errorText } from '../../providers/errors';
import { useT } from '../../providers/i18nProvider';

/** What an import answers (domain/answers/imports.ts): rows created, rows skipped, each refused row. */
export type ImportAnswer = z.infer<typeof ImportReportAnswer>;

type ImportJob = z.infer<typeof ImportJobAnswer>;

function answerOf(body: unknown): ImportAnswer | null {
  const b = body as (Partial<ImportAnswer> & { error?: { details?: { errors?: ImportRowError[] } } }) | undefined;
  const errors = b?.errors ?? b?.error?.details?.errors;
  return Array.isArray(errors) ? { created: b?.created ?? 0, skipped: b?.skipped ?? 0, errors } : null;
}

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

/**
 * Sending rows to `/api/<resource>/import`: a check (dry run) or the import itself, with how far
 * it has come, the check's refused rows, the import's report and the problem to show.
 */
export function useImportRun(resource: string, recordsOf?: string) {
  const { t } = useT();
  const invalidate = useInvalidate();
  const [checked, setChecked] = useState<ImportAnswer | null>(null);
  const [result, setResult] = useState<ImportAnswer | null>(null);
  const [busy, setBusy] = useState<null | 'check' | 'import'>(null);
  const [percent, setPercent] = useState(0);
  // a long import, worked by the server in the background: how far it has come
  const [working, setWorking] = useState<ImportJob | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const reset = () => {
    setChecked(null);
    setResult(null);
    setProblem(null);
    setPercent(0);
  };

  const send = async (rows: Record<string, unknown>[], skipInvalid: boolean, dryRun: boolean) => {
    setBusy(dryRun ? 'check' : 'import');
    setProblem(null);
    setPercent(0);
    setWorking(null);
    try {
      // a long file's rows take a while to send: the bar shows how far they have gone
      const answer = await uploadWithProgress<ImportAnswer | ImportJob>(
        `/api/${resource}/import`,
        { rows, skip_invalid: skipInvalid, dry_run: dryRun },
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

  return { checked, setChecked, result, busy, percent, working, problem, setProblem, send, reset };
}
