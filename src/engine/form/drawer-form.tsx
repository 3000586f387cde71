import { useForm, type UseFormProps, type UseFormReturnType } from '@refinedev/antd';
import type { BaseRecord, HttpError } from '@refinedev/core';
import { App, Button, Space, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { offerReload } from './stale';

/**
 * The create/update form of a mode drawer (SPEC's `mode` and id params): saves without
 * redirecting, closes on success, and on 409 stale offers to load the other person's version.
 * It tells "Saved" or "Could not save" with the server's message, unless `options` says otherwise.
 */
export function useDrawerForm<T extends BaseRecord>(opts: {
  resource: string;
  mode: 'create' | 'update';
  id: number | null;
  onDone(): void;
  options?: Omit<UseFormProps<T, HttpError>, 'resource' | 'action' | 'id' | 'redirect' | 'onMutationSuccess' | 'onMutationError'>;
}): UseFormReturnType<T, HttpError> {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  const result: UseFormReturnType<T, HttpError> = useForm<T, HttpError>({
    resource: opts.resource,
    action: opts.mode === 'create' ? 'create' : 'edit',
    id: opts.mode === 'update' ? (opts.id ?? undefined) : undefined,
    redirect: false,
    onMutationSuccess: opts.onDone,
    onMutationError: (error) =>
      offerReload(modal, error, () => void result.query?.refetch().then((r) => r.data && result.form.setFieldsValue(r.data.data as never))),
    successNotification: () => ({ type: 'success', message: t('directory.saved') }),
    errorNotification: (error) => ({ type: 'error', message: t('directory.saveFailed'), description: error?.message }),
    ...opts.options,
  });
  return result;
}

/** Cancel and Save at the foot of a drawer form. */
export function FormButtons({ onCancel, saveButtonProps }: { onCancel(): void; saveButtonProps: ButtonProps }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button onClick={onCancel}>{t('buttons.cancel')}</Button>
      <Button type="primary" {...saveButtonProps}>
        {t('buttons.save')}
      </Button>
    </Space>
  );
}
