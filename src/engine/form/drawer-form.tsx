import { useForm, type UseFormProps, type UseFormReturnType } from '@refinedev/antd';
import type { BaseRecord, HttpError } from '@refinedev/core';
import { App, Button, Form, Input, Space, type ButtonProps, type FormInstance, type FormProps } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDrawerGuard, useGuardChanges } from '../mode-drawer';
import { type CompareFields, offerStaleChoice } from './stale';

/**
 * The create/update form of a mode drawer (SPEC's `mode` and id params): saves without
 * redirecting, closes on success, and on 409 stale keeps what the user typed and offers to
 * save it over the other person's version, load theirs, or compare the two.
 * It tells "Saved" or "Could not save" with the server's message, unless `options` says otherwise.
 * `labelOf` names a field in the comparison; `compare`, when given, makes its lines.
 */
export function useDrawerForm<T extends BaseRecord>(opts: {
  resource: string;
  mode: 'create' | 'update';
  id: number | null;
  onDone(): void;
  labelOf?(field: string): string;
  compare?: CompareFields;
  options?: Omit<UseFormProps<T, HttpError>, 'resource' | 'action' | 'id' | 'redirect' | 'onMutationSuccess' | 'onMutationError'>;
}): UseFormReturnType<T, HttpError> {
  const { t } = useTranslation();
  const stale = useStaleChoice(opts.labelOf, opts.compare);
  const result: UseFormReturnType<T, HttpError> = useForm<T, HttpError>({
    resource: opts.resource,
    action: opts.mode === 'create' ? 'create' : 'edit',
    id: opts.mode === 'update' ? (opts.id ?? undefined) : undefined,
    redirect: false,
    onMutationSuccess: () => {
      stale.saved();
      opts.onDone();
    },
    onMutationError: stale.onMutationError,
    successNotification: () => ({ type: 'success', message: t('directory.saved') }),
    // a stale save is told by its dialog alone, not by a toast saying it again
    errorNotification: (error) =>
      (error as { code?: string } | undefined)?.code === 'stale' ? false : { type: 'error', message: t('directory.saveFailed'), description: error?.message },
    ...opts.options,
  });
  useKeptOnStale(stale, result);
  useGuardChanges(() => stale.holding() || result.form.isFieldsTouched());
  return result;
}

/** The part of Refine's form result the stale choice works on. */
interface StaleTarget {
  form: FormInstance;
  query?: { data?: { data?: unknown }; refetch(): Promise<{ data?: { data?: unknown } }> };
}

interface StaleChoice {
  onMutationError(error: unknown): void;
  /** A save went through: nothing is held any more. */
  saved(): void;
  /** Whether the user's values are held over a refused save. */
  holding(): boolean;
  target: { current: StaleTarget | null };
  kept: { current: Record<string, unknown> | null };
}

/**
 * On a 409 stale save: keeps what the user typed and offers to save it over the other person's
 * version, load theirs, or compare the two. Give `onMutationError` to Refine's useForm, then
 * call useKeptOnStale with its result. `labelOf` names a field in the comparison; `compare`,
 * when given, makes its lines.
 */
export function useStaleChoice(labelOf: (field: string) => string = (field) => field, compare?: CompareFields): StaleChoice {
  const { modal } = App.useApp();
  const kept = useRef<Record<string, unknown> | null>(null);
  const target = useRef<StaleTarget | null>(null);
  const choice = useRef<StaleChoice | null>(null);
  // the latest namers: a screen's custom fields may arrive after the form opened
  const namers = useRef({ labelOf, compare });
  namers.current = { labelOf, compare };
  choice.current ??= {
    kept,
    target,
    saved: () => {
      kept.current = null;
    },
    holding: () => kept.current !== null,
    onMutationError: (error) => {
      const current = target.current;
      if ((error as { code?: string } | undefined)?.code !== 'stale' || !current) return;
      const { form, query } = current;
      const mine = form.getFieldsValue(true) as Record<string, unknown>;
      kept.current = mine;
      offerStaleChoice(modal, {
        mine,
        theirs: async () => ((await query?.refetch())?.data?.data ?? {}) as Record<string, unknown>,
        labelOf: (field) => namers.current.labelOf(field),
        compare: namers.current.compare,
        keepMine: (theirs) => {
          kept.current = null;
          form.setFieldsValue({ ...mine, version: theirs.version });
          form.submit();
        },
        loadTheirs: (theirs) => {
          kept.current = null;
          form.resetFields();
          form.setFieldsValue(theirs);
        },
      });
    },
  };
  return choice.current;
}

/**
 * Refine resets the form whenever the record is fetched again (it is, after any save, even a
 * refused one): put back what the user typed until they choose.
 */
export function useKeptOnStale(choice: StaleChoice, result: StaleTarget) {
  choice.target.current = result;
  const record = result.query?.data?.data;
  const { form } = result;
  useEffect(() => {
    if (record && choice.kept.current) form.setFieldsValue(choice.kept.current);
  }, [record, form, choice]);
}

/** Cancel and Save at the foot of a drawer form; Cancel asks first when something was changed. */
export function FormButtons({ onCancel, saveButtonProps }: { onCancel(): void; saveButtonProps: ButtonProps }) {
  const { t } = useTranslation();
  const guard = useDrawerGuard();
  return (
    <Space>
      <Button onClick={() => (guard ? guard.requestClose(onCancel) : onCancel())}>{t('buttons.cancel')}</Button>
      <Button type="primary" {...saveButtonProps}>
        {t('buttons.save')}
      </Button>
    </Space>
  );
}

/**
 * A drawer's form around the screen's items: Refine's form props (from useDrawerForm), the
 * hidden version a save sends back, then Cancel and Save. `onFinish` turns the values into the body.
 */
export function DrawerFormBody({
  formProps,
  saveButtonProps,
  onCancel,
  onFinish,
  initialValues = formProps.initialValues,
  children,
}: {
  formProps: FormProps;
  saveButtonProps: ButtonProps;
  onCancel(): void;
  onFinish(values: Record<string, unknown>): unknown;
  initialValues?: FormProps['initialValues'];
  children: ReactNode;
}) {
  return (
    <Form {...formProps} layout="vertical" initialValues={initialValues} onFinish={onFinish}>
      <Form.Item name="version" hidden>
        <Input />
      </Form.Item>
      {children}
      <FormButtons onCancel={onCancel} saveButtonProps={saveButtonProps} />
    </Form>
  );
}
