import { PlusOutlined } from '@ant-design/icons';
import { useCreate } from '@refinedev/core';
import { App, Button, Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GUARDIAN_RELATIONS } from '../../../domain/enums';
import type { FieldDef } from '../../../domain/fields';
import { GUARDIANS } from '../../../domain/resources/people';
import { FieldFormItem } from '../../engine/fields/input';
import type { RefLabel, Translate } from '../../engine/fields/format';
import { ReferenceSelect } from '../../engine/fields/reference-select';
import { errorText, fieldErrors } from '../../providers/errors';

/** The few fields of a guardian asked for inline; the rest are on the guardian's own screen. */
const INLINE = ['first_name', 'last_name', 'relation', 'phone', 'email', 'tax_id'];
const inlineFields = GUARDIANS.fields.filter((f) => INLINE.includes(f.name) && f.name !== 'relation') as FieldDef[];

interface Props {
  value?: number[] | null;
  onChange?(value: number[]): void;
  /** Labels of the guardians the student has (from the record). */
  known?: RefLabel[];
  id?: string;
}

/**
 * A student's guardians: picked among the centre's (siblings share one), or made here with
 * "+ New guardian", a small form whose guardian is then picked.
 */
export function GuardianPicker({ value, onChange, known = [], id }: Props) {
  const { t: translate } = useTranslation();
  const t = translate as Translate;
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [made, setMade] = useState<RefLabel[]>([]);
  const [form] = Form.useForm();
  const { mutateAsync: create, mutation } = useCreate();

  const save = async () => {
    const values = (await form.validateFields()) as Record<string, unknown>;
    try {
      const body = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== ''));
      const answer = await create({ resource: GUARDIANS.name, values: body, successNotification: false, errorNotification: false });
      const row = answer.data as { id: number; first_name: string; last_name: string };
      setMade((list) => [...list, { id: row.id, name: `${row.first_name} ${row.last_name}` }]);
      onChange?.([...(value ?? []), row.id]);
      form.resetFields();
      setOpen(false);
      message.success(t('guardians.createdInline', { name: `${row.first_name} ${row.last_name}` }));
    } catch (error) {
      const fields = fieldErrors(error);
      if (Object.keys(fields).length) form.setFields(Object.entries(fields).map(([name, errors]) => ({ name, errors: [errors] })));
      else message.error(errorText(error));
    }
  };

  return (
    <>
      <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <ReferenceSelect
            id={id}
            multiple
            reference={GUARDIANS.name}
            known={[...known, ...made]}
            value={value ?? []}
            onChange={(v) => onChange?.((v as number[] | null) ?? [])}
          />
        </div>
        <Button icon={<PlusOutlined />} onClick={() => setOpen(true)}>
          {t('guardians.newInline')}
        </Button>
      </div>
      <Modal
        title={t('guardians.create')}
        open={open}
        onCancel={() => setOpen(false)}
        onOk={save}
        okText={t('buttons.save')}
        cancelText={t('buttons.cancel')}
        confirmLoading={mutation.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" name="inline-guardian" initialValues={{ relation: 'GUARDIAN' }}>
          {inlineFields.map((field) => (
            <FieldFormItem key={field.name} field={field} label={t(`guardians.fields.${field.name}`)} ctx={{ t, mode: 'create' }} />
          ))}
          <Form.Item name="relation" label={t('guardians.fields.relation')}>
            <Select options={GUARDIAN_RELATIONS.map((r) => ({ value: r, label: t(`enums.${r}`) }))} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
