// One CRUD contract for every record (tests/api/engine/engine-contract.ts), run against a built-in
// resource kept in its own table (rooms) and a custom entity's records (halls), on both
// databases: the engine's routes serve both through the same handlers.
import { describe } from 'vitest';
import { engineContract } from './engine-contract';
import { entityField } from '../../../bench/exam-entity';
import { DATABASE_KINDS } from '../support/harness';

describe.each(DATABASE_KINDS)('the record engine contract on %s', (kind) => {
  engineContract(kind, { title: 'rooms', base: '/api/rooms', history: 'rooms', target: 'rooms' });
  engineContract(kind, {
    title: 'custom halls',
    base: '/api/custom-entities/halls/records',
    history: 'custom:halls',
    target: 'custom:halls',
    async setup(call) {
      const res = await call('POST', '/api/custom-entities', {
        slug: 'halls',
        name_el: 'Αίθουσα',
        name_en: 'Hall',
        name_plural_el: 'Αίθουσες',
        name_plural_en: 'Halls',
        fields: [entityField('name', 'TEXT', { required: true, searchable: true }), entityField('capacity', 'NUMBER')],
      });
      if (res.statusCode !== 201) throw new Error(`halls: ${res.statusCode} ${res.body}`);
    },
  });
});
