import { Form } from 'antd';
import { useEffect, useRef } from 'react';
import { CONTRACTS } from '../../../domain/resources/money';
import { GUARDIANS } from '../../../domain/resources/people';
import { labelOf, type RefLabel } from '../../engine/fields/format';
import { ReferenceSelect } from '../../engine/fields/reference-select';
import { useT } from '../../providers/i18nProvider';

/**
 * A contract's payer (docs/rules.md, Guardians): one of its student's guardians, or nobody (an
 * adult student pays). Only her guardians are offered; choosing another student clears a payer
 * who is not hers, and before a student is chosen there is nobody to offer.
 */
export function PayerFormItem({ record }: { record?: Record<string, unknown> }) {
  const { t } = useT();
  const form = Form.useFormInstance();
  const studentId = Form.useWatch('student_id', form) as number | null | undefined;
  const field = CONTRACTS.fields.find((f) => f.name === 'payer_guardian_id')!;
  const known = record?.payer_guardian ? [record.payer_guardian as RefLabel] : [];
  const previous = useRef(studentId);
  useEffect(() => {
    const before = previous.current;
    previous.current = studentId;
    // the form's first values (the record, a student's "new contract") are not a change
    if (before === undefined || before === studentId) return;
    form.setFieldValue('payer_guardian_id', null);
  }, [studentId, form]);
  const chosen = typeof studentId === 'number';
  return (
    <Form.Item name="payer_guardian_id" label={labelOf(t, CONTRACTS, field)} extra={chosen ? t('guardians.payerHint') : t('guardians.payerStudentFirst')}>
      <ReferenceSelect
        key={chosen ? studentId : 'none'}
        reference={GUARDIANS.name}
        known={known}
        disabled={!chosen}
        filters={chosen ? [{ field: 'student_ids', operator: 'eq', value: studentId }] : undefined}
      />
    </Form.Item>
  );
}
