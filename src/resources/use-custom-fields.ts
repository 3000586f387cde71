import { useList } from '@refinedev/core';
import type { CustomFieldDefinition } from '../../domain/custom-fields';

interface CustomFieldRow extends CustomFieldDefinition {
  id: number;
  version: number;
  position: number;
}

/** The tenant's student custom field definitions, in their order (every role may read them). */
export function useStudentCustomFields() {
  const { result, query } = useList<CustomFieldRow>({
    resource: 'student-custom-fields',
    pagination: { currentPage: 1, pageSize: 200, mode: 'server' },
    sorters: [
      { field: 'position', order: 'asc' },
      { field: 'label', order: 'asc' },
    ],
  });
  return { definitions: result.data ?? [], loading: query.isLoading };
}
