// The custom entity that the records tests and the bench define: an exam with a field of every
// type, its choices given by the caller, and any further fields after those.

/** A field of a definition, labelled by its key in both languages. */
export const entityField = (key: string, type: string, extra: Record<string, unknown> = {}) => ({ key, label_el: key, label_en: key, type, ...extra });

export function examEntity(slug: string, choices: { subjects: readonly string[]; tags: readonly string[] }, more: ReturnType<typeof entityField>[] = []) {
  return {
    slug,
    name_el: 'Εξέταση',
    name_en: 'Exam',
    name_plural_el: 'Εξετάσεις',
    name_plural_en: 'Exams',
    fields: [
      entityField('title', 'TEXT', { required: true, searchable: true }),
      entityField('grade', 'NUMBER'),
      entityField('held_on', 'DATE'),
      entityField('subject', 'SINGLE_CHOICE', { options: choices.subjects }),
      entityField('tags', 'MULTIPLE_CHOICE', { options: choices.tags }),
      entityField('passed', 'BOOLEAN'),
      entityField('student', 'REFERENCE', { target: 'students' }),
      ...more,
    ],
  };
}
