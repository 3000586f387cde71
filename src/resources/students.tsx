import { ImportOutlined } from '@ant-design/icons';
import { CreateButton } from '@refinedev/antd';
import { useUpdate } from '@refinedev/core';
import { App, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STUDENTS } from '../../domain/resources/people';
import { ResourceScreen, rowTitle } from '../engine/resource-screen';
import { errorText } from '../providers/errors';
import type { RefLabel } from '../engine/fields/format';
import { GuardianPicker } from './guardians/guardian-picker';
import { useNewGuardians } from './guardians/new-guardians';
import { PersonalDataActions } from './guardians/personal-data';
import { OfferWithdrawOnInactive } from './money/student-withdraw';
import { StudentImport } from './students-import';
import { useStudentCustomFields } from './use-custom-fields';

const name = rowTitle(STUDENTS);

/**
 * /students/: `?mode=create|update|view&student=<id>`, with the centre's custom fields, the
 * inactive reason only for INACTIVE students, and import from CSV.
 */
export default function StudentsPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const { definitions } = useStudentCustomFields();
  const [importing, setImporting] = useState(false);
  const { mutateAsync: update } = useUpdate();
  const newGuardians = useNewGuardians();

  return (
    <>
      <ResourceScreen
        def={STUDENTS}
        customFields={definitions}
        visible={(field, values) => field !== 'inactive_reason' || values.status === 'INACTIVE'}
        // the guardians are picked, or typed on the spot ("+ New guardian") and saved with the student
        form={{
          toBody: (body) => newGuardians.save(body),
          item: (field, _mode, record) =>
            field.name === 'guardian_ids' ? (
              <Form.Item name="guardian_ids" label={t('students.fields.guardian_ids')}>
                <GuardianPicker known={(record?.guardians as RefLabel[] | undefined) ?? []} onPending={newGuardians.remember} />
              </Form.Item>
            ) : undefined,
        }}
        view={{ extra: (row) => <PersonalDataActions resource="students" id={Number(row.id)} name={name(row)} /> }}
        toolbar={
          // importing creates students: shown to whoever may create one
          <CreateButton resource={STUDENTS.name} icon={<ImportOutlined />} onClick={() => setImporting(true)}>
            {t('import.open')}
          </CreateButton>
        }
        remove={{
          onRefused: (row, _error, helpers) => {
            // a student others point at (notes, contracts) stays, marked inactive
            if (row.status === 'INACTIVE') return false;
            modal.confirm({
              title: t('students.inUseTitle', { name: name(row) }),
              content: t('students.inUseText'),
              okText: t('students.markInactive'),
              cancelText: t('buttons.cancel'),
              onOk: async () => {
                try {
                  // the page says what happened itself: no toast of Refine's
                  const values = { status: 'INACTIVE', version: row.version };
                  await update({ resource: STUDENTS.name, id: row.id, values, successNotification: false, errorNotification: false });
                  await helpers.refresh();
                  message.success(t('students.markedInactive', { name: name(row) }));
                } catch (error) {
                  message.error(errorText(error));
                }
              },
            });
            return true;
          },
        }}
      />
      <StudentImport customFields={definitions} open={importing} onClose={() => setImporting(false)} />
      <OfferWithdrawOnInactive />
    </>
  );
}
