import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { STUDENT_CUSTOM_FIELDS } from '../../domain/resources/people';
import { inUseText, ResourceScreen } from '../engine/resource-screen';
import { toProviderError } from '../providers/dataProvider';
import type { ApiErrorBody } from '../providers/http';
import { errorText } from '../providers/errors';
import { App } from 'antd';

const CHOICE = ['SINGLE_CHOICE', 'MULTIPLE_CHOICE'];

/** How many students hold a value, when the server says (409 in-use body). */
function countOf(body: unknown): number | undefined {
  const n = (body as ApiErrorBody | undefined)?.error?.details?.count;
  return typeof n === 'number' ? n : undefined;
}

/**
 * /students/settings (ROOT, ADMIN): the fields every student form shows beside the built-in ones.
 * `?mode=create` or `?mode=update&custom_field=<id>`. The key never changes; a change that
 * stored values would not fit is refused (409 in-use) and explained.
 */
export default function StudentCustomFieldsPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return (
    <ResourceScreen
      def={STUDENT_CUSTOM_FIELDS}
      visible={(field, values) => field !== 'options' || CHOICE.includes(String(values.type))}
      form={{
        toBody: (body) => (CHOICE.includes(String(body.type)) ? body : { ...body, options: body.options === undefined ? undefined : null }),
        fieldExtra: (field, mode) =>
          field === 'key' && mode === 'create' ? t('student-custom-fields.keyHint') : field === 'options' ? t('student-custom-fields.optionsHint') : undefined,
        extra: (mode) =>
          mode === 'update' ? <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('student-custom-fields.changeHint')} /> : null,
        errorText: (error) => (error.code === 'in-use' ? t('student-custom-fields.changeRefused') : undefined),
      }}
      remove={{
        confirm: (row) => t('student-custom-fields.deleteConfirm', { name: String(row.label) }),
        onRefused: (row, error, helpers) => {
          const count = countOf(error.body);
          modal.confirm({
            title: t('student-custom-fields.discardTitle', { name: String(row.label) }),
            content: count === undefined ? t('student-custom-fields.discardText') : t('student-custom-fields.discardCount', { count }),
            okText: t('student-custom-fields.discardOk'),
            okButtonProps: { danger: true },
            cancelText: t('buttons.cancel'),
            onOk: async () => {
              try {
                await helpers.remove(row, { discard_values: 'true' });
              } catch (again) {
                const apiError = toProviderError(again);
                modal.error({ title: t('directory.deleteFailed'), content: apiError.code === 'in-use' ? inUseText(helpers.t, apiError) : errorText(apiError) });
              }
            },
          });
          return true;
        },
      }}
    />
  );
}
