import { ImportOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STUDENTS } from '../../domain/resources/people';
import { ResourceScreen, useRights, type Row } from '../components/resource-screen';
import { http } from '../providers/http';
import { errorText } from '../providers/errors';
import { StudentImport } from './students-import';
import { useStudentCustomFields } from './use-custom-fields';

const name = (row: Row) => `${String(row.first_name ?? '')} ${String(row.last_name ?? '')}`.trim();

/**
 * /students/: `?mode=create|update|view&student=<id>`, with the centre's custom fields, the
 * inactive reason only for INACTIVE students, and import from CSV.
 */
export default function StudentsPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const { definitions } = useStudentCustomFields();
  const [importing, setImporting] = useState(false);
  const rights = useRights(STUDENTS);

  return (
    <>
      <ResourceScreen
        def={STUDENTS}
        entity="student"
        modes={['create', 'update', 'view']}
        listFields={['last_name', 'first_name', 'phone', 'guardian_name', 'guardian_phone', 'class_ids', 'status', 'number_of_contracts']}
        customFields={definitions}
        rowName={name}
        visible={(field, values) => field !== 'inactive_reason' || values.status === 'INACTIVE'}
        toolbar={
          rights.create ? (
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
              {t('import.open')}
            </Button>
          ) : null
        }
        onDeleteRefused={(row, _error, helpers) => {
          // a student others point at (notes, contracts) stays, marked inactive
          if (row.status === 'INACTIVE') return false;
          modal.confirm({
            title: t('students.inUseTitle', { name: name(row) }),
            content: t('students.inUseText'),
            okText: t('students.markInactive'),
            cancelText: t('buttons.cancel'),
            onOk: async () => {
              try {
                await http.patch(`/api/students/${row.id}`, { status: 'INACTIVE', version: row.version });
                await helpers.refresh();
                message.success(t('students.markedInactive', { name: name(row) }));
              } catch (error) {
                message.error(errorText(error));
              }
            },
          });
          return true;
        }}
      />
      <StudentImport customFields={definitions} open={importing} onClose={() => setImporting(false)} />
    </>
  );
}
