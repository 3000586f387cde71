// The client's side of custom entities: the declaration the server sends for an entity is
// mounted as it is, named in the user's language, and the builder's form becomes the body the
// API takes.
import { afterEach, describe, expect, it } from 'vitest';
import { type CustomEntity, runtimeDeclaration } from '../../domain/custom-entities';
import { FIELD_CODES } from '../../domain/errors';
import { describeChanges, historyEntity } from '../../src/engine/view/history-tab';
import { loadAllLanguages, translations } from '../../src/providers/i18nProvider';
import { fieldText } from '../../src/engine/fields/format';
import { referencesTo } from '../../src/engine/view/referencing-tabs';
import { entityBody, formPath, inUseDetails, previewField } from '../../src/resources/custom-entities/api';
import { setRuntimeDeclarations } from '../../src/engine/registry';
import { pickLabel, runtimeTranslations } from '../../src/engine/runtime/runtime';
import { parseRuntimeDeclarations } from '../../src/engine/runtime/runtime-parse';
import { cellValue } from '../../src/engine/import/csv-rows';
import { STUDENTS } from '../../domain/resources/index';
import { iconOf, refineResources } from '../../src/resources/index';

const EXAMS: Omit<CustomEntity, 'version'> = {
  id: 1,
  slug: 'exams',
  name_el: 'Εξέταση',
  name_en: 'Exam',
  name_plural_el: 'Εξετάσεις',
  name_plural_en: 'Exams',
  description: 'Διαγωνίσματα προσομοίωσης',
  icon: 'TrophyOutlined',
  group: null,
  fields: [
    {
      key: 'title',
      label_el: 'Τίτλος',
      label_en: 'Title',
      type: 'TEXT',
      required: true,
      options: null,
      target: null,
      position: 0,
      shown_in_list: true,
      searchable: true,
    },
    {
      key: 'student',
      label_el: 'Μαθητής',
      label_en: 'Student',
      type: 'REFERENCE',
      required: true,
      options: null,
      target: 'students',
      position: 1,
      shown_in_list: true,
      searchable: false,
    },
    {
      key: 'held_on',
      label_el: 'Ημερομηνία',
      label_en: 'Date',
      type: 'DATE',
      required: false,
      options: null,
      target: null,
      position: 2,
      shown_in_list: true,
      searchable: false,
    },
    {
      key: 'grade',
      label_el: 'Βαθμός',
      label_en: 'Grade',
      type: 'NUMBER',
      required: false,
      options: null,
      target: null,
      position: 3,
      shown_in_list: true,
      searchable: false,
    },
    {
      key: 'passed',
      label_el: 'Πέρασε',
      label_en: 'Passed',
      type: 'BOOLEAN',
      required: false,
      options: null,
      target: null,
      position: 4,
      shown_in_list: false,
      searchable: false,
    },
  ],
};

const t = (key: string, options?: Record<string, unknown>) => `${key}${options?.name ? `:${String(options.name)}` : ''}`;

afterEach(() => setRuntimeDeclarations([]));

describe('the runtime declaration of an entity', () => {
  const json = JSON.parse(JSON.stringify({ data: [runtimeDeclaration(EXAMS)] })) as unknown;

  it('is mounted as the server sends it, with its labels in both languages and its description', () => {
    const [def] = parseRuntimeDeclarations(json);
    expect(def?.name).toBe('custom-entities/exams/records');
    expect(def?.screen.route).toBe('/custom-entities/entity/exams/');
    expect(def?.fields.map((f) => f.type)).toEqual(['TEXT', 'REFERENCE', 'DATE', 'NUMBER', 'BOOLEAN']);
    expect(def?.fields.find((f) => f.name === 'student')?.reference).toBe('students');
    expect(def?.labels?.el?.plural).toBe('Εξετάσεις');
    expect(def?.labels?.en?.fields?.grade).toBe('Grade');
    expect(def?.labels?.el?.description).toBe('Διαγωνίσματα προσομοίωσης');
    expect(def?.screen.listFields).toEqual(['title', 'student', 'held_on', 'grade']);
  });

  it('is named in the language asked for: title, sidebar entry, buttons and field labels', () => {
    const [def] = parseRuntimeDeclarations(json);
    const el = runtimeTranslations(def!, 'el', t);
    const en = runtimeTranslations(def!, 'en', t);
    expect(el).toMatchObject({
      title: 'Εξετάσεις',
      'custom-entities/exams/records': 'Εξετάσεις',
      view: 'Εξέταση',
      fields: { student: 'Μαθητής', grade: 'Βαθμός' },
    });
    expect(el.create).toBe('customEntities.records.create:Εξέταση');
    expect(en).toMatchObject({ title: 'Exams', view: 'Exam', fields: { student: 'Student', passed: 'Passed' } });
  });

  it('falls back to the other language, then to the key, when a name is missing', () => {
    const labels = { el: { name: 'Εκδρομή', plural: 'Εκδρομές', fields: { place: 'Τόπος' } }, en: { name: '', fields: {} } };
    expect(pickLabel(labels, 'en', (l) => l.name)).toBe('Εκδρομή');
    expect(pickLabel(labels, 'en', (l) => l.fields?.place)).toBe('Τόπος');
    expect(pickLabel(undefined, 'el', (l) => l.name)).toBeUndefined();
    const [def] = parseRuntimeDeclarations([{ ...runtimeDeclaration(EXAMS), labels: { el: { plural: 'Εξετάσεις' } } }]);
    expect(runtimeTranslations(def!, 'en', t)).toMatchObject({ title: 'Εξετάσεις', fields: { title: 'title', grade: 'grade' } });
  });

  it('refuses labels that are not text and keys that are not field names', () => {
    const bad = [
      { ...runtimeDeclaration(EXAMS), labels: { el: { name: 42 } } },
      { ...runtimeDeclaration(EXAMS), labels: { el: { fields: { 'Bad Key': 'x' } } } },
      { ...runtimeDeclaration(EXAMS), labels: { fr: { name: 'Examen' } } },
    ];
    const warn = console.warn;
    console.warn = () => undefined;
    expect(parseRuntimeDeclarations(bad)).toEqual([]);
    console.warn = warn;
  });

  it('takes its chosen icon and group into the sidebar', () => {
    const [def] = parseRuntimeDeclarations([runtimeDeclaration({ ...EXAMS, group: 'settings' })]);
    const item = refineResources([], [def!]).find((r) => r.name === def!.name);
    expect(item?.meta?.parent).toBe('settings');
    expect(iconOf('TrophyOutlined')).not.toEqual(iconOf('no-such-icon'));
    expect(iconOf('constructor')).toEqual(iconOf('no-such-icon'));
  });

  it('names its history `custom:<slug>`, while built-in resources keep their names', () => {
    expect(historyEntity({ name: 'custom-entities/exams/records' })).toBe('custom:exams');
    expect(historyEntity({ name: 'students' })).toBe('students');
  });

  it('gives the referenced built-in a tab: the students know the exams point at them', () => {
    const defs = parseRuntimeDeclarations([runtimeDeclaration(EXAMS)]);
    expect(referencesTo(STUDENTS.name, defs).map(({ def, field }) => [def.name, field.name])).toEqual([['custom-entities/exams/records', 'student']]);
    expect(referencesTo('teachers', defs)).toEqual([]);
  });

  it('lets the list sort by a reference (the server orders by the referenced name), not by a multiple choice', () => {
    const [def] = parseRuntimeDeclarations(json);
    expect(def!.fields.find((f) => f.name === 'student')?.sortable).toBe(true);
    const [tagged] = parseRuntimeDeclarations([
      runtimeDeclaration({ ...EXAMS, fields: [...EXAMS.fields, { ...EXAMS.fields[0]!, key: 'tags', type: 'MULTIPLE_CHOICE', options: ['α'], position: 9 }] }),
    ]);
    expect(tagged!.fields.find((f) => f.name === 'tags')?.sortable).toBeFalsy();
  });

  it('shows in its history the names the server sends beside a reference change', () => {
    const [def] = parseRuntimeDeclarations(json);
    const changes = describeChanges(t, def!, {
      student: { old: 7, new: 9, labels: { old: { id: 7, name: 'Ελένη Παππά' }, new: { id: 9, name: 'Άρης Έξαρχος' } } },
      grade: { old: null, new: 15 },
    });
    expect(changes.map((c) => [c.key, c.old, c.new])).toEqual([
      ['student', 'Ελένη Παππά', 'Άρης Έξαρχος'],
      ['grade', '—', '15'],
    ]);
  });

  it('shows a reference by the label beside it, and a Yes/No as words', () => {
    const [def] = parseRuntimeDeclarations([runtimeDeclaration(EXAMS)]);
    const row = { id: 3, student: 7, student_label: { id: 7, name: 'Ελένη Παππά' }, passed: true };
    const tr = (key: string) => ({ 'buttons.yes': 'Ναι', 'buttons.no': 'Όχι' })[key] ?? key;
    expect(fieldText(tr, def!.fields.find((f) => f.name === 'student')!, row)).toBe('Ελένη Παππά');
    expect(fieldText(tr, def!.fields.find((f) => f.name === 'passed')!, row)).toBe('Ναι');
  });
});

describe('the builder', () => {
  it('sends trimmed names, options only for choices, a target only for references, positions in order', () => {
    const body = entityBody({
      slug: ' exams ',
      name_el: 'Εξέταση ',
      name_en: 'Exam',
      name_plural_el: 'Εξετάσεις',
      name_plural_en: 'Exams',
      description: '  ',
      icon: 'BookOutlined',
      group: '',
      fields: [
        { key: 'subject', label_el: 'Μάθημα', label_en: 'Subject', type: 'SINGLE_CHOICE', options: ['Μαθηματικά', ' Φυσική ', ''], target: 'students' },
        { key: 'student', label_el: 'Μαθητής', label_en: 'Student', type: 'REFERENCE', options: ['x'], target: 'students', required: true },
        { key: 'grade', label_el: 'Βαθμός', label_en: 'Grade', type: 'NUMBER', shown_in_list: true, searchable: false },
      ],
    });
    expect(body).toMatchObject({ slug: 'exams', name_el: 'Εξέταση', description: null, group: null, icon: 'BookOutlined' });
    expect(body.fields).toEqual([
      {
        key: 'subject',
        label_el: 'Μάθημα',
        label_en: 'Subject',
        type: 'SINGLE_CHOICE',
        required: false,
        options: ['Μαθηματικά', 'Φυσική'],
        target: null,
        position: 0,
        shown_in_list: false,
        searchable: false,
      },
      {
        key: 'student',
        label_el: 'Μαθητής',
        label_en: 'Student',
        type: 'REFERENCE',
        required: true,
        options: null,
        target: 'students',
        position: 1,
        shown_in_list: false,
        searchable: false,
      },
      {
        key: 'grade',
        label_el: 'Βαθμός',
        label_en: 'Grade',
        type: 'NUMBER',
        required: false,
        options: null,
        target: null,
        position: 2,
        shown_in_list: true,
        searchable: false,
      },
    ]);
  });

  it('puts the server field codes on the form fields they name', () => {
    expect(formPath('fields.2.key')).toEqual(['fields', 2, 'key']);
    expect(formPath('slug')).toEqual(['slug']);
  });

  it('previews a field as the form will show it, labelled in the language of the screen', () => {
    const choice = previewField({ key: 'subject', label_el: 'Μάθημα', label_en: 'Subject', type: 'SINGLE_CHOICE', options: ['Α', ''] }, 0, 'en');
    expect(choice.label).toBe('Subject');
    expect(choice.def).toMatchObject({ type: 'SINGLE_CHOICE', options: ['Α'] });
    const reference = previewField({ key: 'trip', label_el: 'Εκδρομή', type: 'REFERENCE', target: 'custom:trips' }, 1, 'en');
    expect(reference).toMatchObject({ label: 'Εκδρομή', def: { reference: 'custom-entities/trips/records' } });
  });

  it('reads how many records stand in the way from a 409 in-use answer', () => {
    expect(inUseDetails({ error: { code: 'in-use', details: { reason: 'values-held', count: 3, field: 'grade' } } })).toEqual({
      count: 3,
      field: 'grade',
      reason: 'values-held',
    });
    expect(inUseDetails(undefined)).toEqual({});
  });
});

it('an imported reference cell is the record number, or the name the server looks up', () => {
  expect(cellValue({ name: 'student', type: 'REFERENCE', reference: 'students' }, ' 12 ')).toBe(12);
  expect(cellValue({ name: 'student', type: 'REFERENCE', reference: 'students' }, 'Ελένη')).toBe('Ελένη');
});

it('the import report says in both languages why a row was refused, a name fitting no record or several among them', async () => {
  await loadAllLanguages();
  for (const language of ['el', 'en'] as const) {
    const fields = translations[language].fields as Record<string, string>;
    for (const code of FIELD_CODES) expect(typeof fields[code], `${language}: fields.${code}`).toBe('string');
  }
  expect(translations.el.fields).toMatchObject({ 'no-match': expect.stringContaining('όνομα'), ambiguous: expect.stringContaining('id') });
});
