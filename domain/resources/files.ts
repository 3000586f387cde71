import { defineResource, type FieldDef } from '../fields';

// The centre's shared documents: a tree of folders and the files in them. A file's row is
// made by an upload (its bytes streamed to storage); the API changes only its name and folder.
const name: FieldDef = { name: 'name', type: 'TEXT', required: true, max: 200, sortable: true, filterable: true, searchable: true };
const screen = { route: '/file-management/', icon: 'folder', page: 'file-management' } as const;

export const FOLDERS = defineResource({
  name: 'folders',
  area: 'files',
  fields: [name, { name: 'parent_id', type: 'REFERENCE', reference: 'folders', filterable: true, sortable: true }],
  defaultSort: [{ field: 'name', order: 'asc' }],
  screen: { order: 120, ...screen, entity: 'folder', modes: ['create', 'update'] },
});

export const FILES = defineResource({
  name: 'files',
  area: 'files',
  fields: [
    name,
    { name: 'folder_id', type: 'REFERENCE', reference: 'folders', filterable: true, sortable: true },
    { name: 'size', type: 'NUMBER', integer: true, readOnly: true, sortable: true, filterable: true },
    { name: 'mime_type', type: 'TEXT', readOnly: true, sortable: true, filterable: true },
    { name: 'sha256', type: 'TEXT', readOnly: true },
    { name: 'uploaded_by', type: 'TEXT', readOnly: true, sortable: true },
    { name: 'uploaded_at', type: 'INSTANT', readOnly: true, sortable: true, filterable: true },
  ],
  defaultSort: [{ field: 'name', order: 'asc' }],
  // Listed inside the folders' page, not a sidebar entry of its own.
  screen: { order: 130, ...screen, entity: 'file', modes: ['update'], hidden: true },
});

/** Types a browser may show in place (previews); every other file is only downloaded. */
export const PREVIEW_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'];
