import { PlusOutlined } from '@ant-design/icons';
import { Form, Modal, Select, Button } from 'antd';
import { useRef, useState } from 'react';
import { GUARDIAN_RELATIONS } from '../../../domain/enums';
import type { FieldDef } from '../../../domain/fields';
import { GUARDIANS } from '../../../domain/resources/people';
import { FieldFormItem } from '../../engine/fields/input';
import type { RefLabel } from '../../engine/fields/format';
import { ReferenceSelect } from '../../engine/fields/reference-select';
import { useDiscardQuestion } from '../../engine/form/leave-guard';
import { useT } from '../../providers/i18nProvider';

/** The fields of a guardian asked for inline (her address too, for her receipts); the rest are on her own screen. */
const INLINE = ['first_name', 'last_name', 'phone', 'email', 'address', 'city', 'postal_code', 'tax_id'];
const inlineFields = INLINE.map((name) => GUARDIANS.fields.find((f) => f.name === name)).filter(Boolean) as FieldDef[];

/** A guardian typed in the student's form, not saved yet: her id in the form is a stand-in below zero. */
export interface PendingGuardian {
  id: number;
  name: string;
  body: Record<string, unknown>;
}

let nextStandIn = -1;

interface Props {
  value?: number[] | null;
  onChange?(value: number[]): void;
  /** Labels of the guardians the student has (from the record). */
  known?: RefLabel[];
  id?: string;
  /** Told of each new guardian typed here; she is saved with the student (`saveNewGuardians`). */
  onPending(guardian: PendingGuardian): void;
}

/**
 * A student's guardians: picked among the centre's (siblings share one), or typed here with
 * "+ New guardian", a small form whose guardian joins the list at once but is saved only when
 * the student is; cancelling the student's form discards her with everything else typed.
 */
export function GuardianPicker({ value, onChange, known = [], id, onPending }: Props) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState<RefLabel[]>([]);
  const [form] = Form.useForm();
  const touched = useRef(false);
  const askDiscard = useDiscardQuestion();

  const close = () => {
    touched.current = false;
    form.resetFields();
    setOpen(false);
  };
  const add = async () => {
    const values = (await form.validateFields()) as Record<string, unknown>;
    const body = Object.fromEntries(
      Object.entries(values)
        .map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v])
        .filter(([, v]) => v !== undefined && v !== null && v !== ''),
    );
    const guardian: PendingGuardian = { id: nextStandIn--, name: `${String(body.first_name ?? '')} ${String(body.last_name ?? '')}`.trim(), body };
    onPending(guardian);
    setPending((list) => [...list, { id: guardian.id, name: t('guardians.pendingInline', { name: guardian.name }) }]);
    onChange?.([...(value ?? []), guardian.id]);
    close();
  };
  // what was typed is never dropped silently: closing a changed form asks first
  const cancel = () => (touched.current ? askDiscard(close) : close());

  return (
    <>
      <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <ReferenceSelect
            id={id}
            multiple
            reference={GUARDIANS.name}
            known={[...known, ...pending]}
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
        onCancel={cancel}
        onOk={add}
        okText={t('guardians.addInline')}
        cancelText={t('buttons.cancel')}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          name="inline-guardian"
          initialValues={{ relation: 'GUARDIAN' }}
          onValuesChange={() => {
            touched.current = true;
          }}
        >
          {inlineFields.map((field) => (
            <FieldFormItem key={field.name} field={field} label={t(`guardians.fields.${field.name}`)} ctx={{ t, mode: 'create' }} />
          ))}
          <Form.Item name="relation" label={t('guardians.fields.relation')}>
            <Select options={GUARDIAN_RELATIONS.map((r) => ({ value: r, label: t(`enums.${r}`) }))} />
          </Form.Item>
          <p style={{ margin: 0, color: 'rgba(0, 0, 0, 0.55)' }}>{t('guardians.inlineHint')}</p>
        </Form>
      </Modal>
    </>
  );
}
