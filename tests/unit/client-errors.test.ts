import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../domain/errors';
import { errorText, toHttpError } from '../../src/providers/errors';
import { ApiError } from '../../src/providers/http';
import { i18n } from '../../src/providers/i18nProvider';

// What a user reads when the server refuses something: the code and its details worded in the
// user's language, with plural forms; never the server's English message.
const refused = (code: string, error: Record<string, unknown> = {}, message = 'This record is used by 261 lessons, 6 recurring-lessons.') =>
  new ApiError(409, code, message, {}, { error: { code, message, ...error } }, {});

afterEach(async () => {
  await i18n.changeLanguage('el');
});

describe('errorText', () => {
  it('names what keeps a record, in Greek plurals, from details.uses', () => {
    const error = refused('in-use', { details: { reason: 'used-by', uses: { lessons: 261, 'recurring-lessons': 6 } } });
    expect(errorText(error)).toBe('Χρησιμοποιείται από 261 διδασκαλίες και 6 επαναλαμβανόμενες διδασκαλίες, γι’ αυτό δεν μπορεί να διαγραφεί.');
    expect(errorText(refused('in-use', { details: { uses: { classes: 1 } } }))).toBe('Χρησιμοποιείται από 1 τμήμα, γι’ αυτό δεν μπορεί να διαγραφεί.');
  });

  it('reads the word list (details.used_by) the same way, and speaks English when asked', async () => {
    const error = refused('in-use', { details: { used_by: ['1 lessons', '6 recurring-lessons'] } });
    expect(errorText(error)).toBe('Χρησιμοποιείται από 1 διδασκαλία και 6 επαναλαμβανόμενες διδασκαλίες, γι’ αυτό δεν μπορεί να διαγραφεί.');
    await i18n.changeLanguage('en');
    expect(errorText(error)).toBe('This record is used by 1 lesson and 6 recurring lessons, so it cannot be deleted.');
  });

  it('words a reason with its parameters and plural', () => {
    expect(errorText(refused('conflict', { details: { reason: 'overlap', count: 1 } }))).toBe(
      'Συμπίπτει με 1 διδασκαλία στην ίδια αίθουσα, με τον ίδιο καθηγητή ή το ίδιο τμήμα.',
    );
    expect(errorText(refused('conflict', { details: { reason: 'overlap', count: 3 } }))).toContain('3 διδασκαλίες');
    expect(errorText(refused('conflict', { details: { reason: 'own-role' } }))).toBe('Δεν μπορείτε να αλλάξετε τον δικό σας ρόλο.');
  });

  it('has a text of its own for every code of the API in both languages, and a generic one for a code it does not know', async () => {
    for (const language of ['el', 'en']) {
      await i18n.changeLanguage(language);
      for (const code of ERROR_CODES) {
        expect(i18n.exists(`errors.${code}`), `${language}: errors.${code}`).toBe(true);
        expect(errorText(refused(code, {}, 'English text from the server'))).not.toContain('English text');
      }
    }
    await i18n.changeLanguage('el');
    expect(errorText(refused('brand-new-code', {}, 'Something new happened.'))).toBe('Η ενέργεια δεν ολοκληρώθηκε. Δοκιμάστε ξανά.');
  });

  it('translates an error Refine already holds again in the current language', async () => {
    const held = toHttpError(refused('not-found', {}, 'Not found.'));
    expect(held.message).toBe('Αυτή η εγγραφή δεν υπάρχει: ίσως διαγράφηκε ή ο σύνδεσμος είναι λάθος.');
    await i18n.changeLanguage('en');
    expect(errorText(held)).toBe('This record does not exist: it may have been deleted, or the link is wrong.');
  });
});
