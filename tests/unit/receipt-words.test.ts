// The Greek wording a receipt prints: the month a fee pays for in the genitive, and the amount
// in words (neuter for euro and cents, feminine before χιλιάδες).
import { describe, expect, it } from 'vitest';
import { amountInWords, greekNumberWords, monthGenitive, paymentLineText } from '../../domain/receipt-words';

describe('receipt wording', () => {
  it.each([
    ['2026-01', 'Ιανουαρίου 2026'],
    ['2026-02', 'Φεβρουαρίου 2026'],
    ['2026-03', 'Μαρτίου 2026'],
    ['2026-04', 'Απριλίου 2026'],
    ['2026-05', 'Μαΐου 2026'],
    ['2026-06', 'Ιουνίου 2026'],
    ['2026-07', 'Ιουλίου 2026'],
    ['2026-08', 'Αυγούστου 2026'],
    ['2026-09', 'Σεπτεμβρίου 2026'],
    ['2026-10', 'Οκτωβρίου 2026'],
    ['2026-11', 'Νοεμβρίου 2026'],
    ['2026-12', 'Δεκεμβρίου 2026'],
  ])('%s is "%s"', (month, genitive) => {
    expect(monthGenitive(month)).toBe(genitive);
    expect(paymentLineText('MONTHLY', month)).toBe(`Δίδακτρα ${genitive}`);
  });

  it('names registration and extra charges', () => {
    expect(paymentLineText('REGISTER', null)).toBe('Εγγραφή');
    expect(paymentLineText('EXTRA', null, ' Βιβλία ')).toBe('Πρόσθετη χρέωση: Βιβλία');
    expect(paymentLineText('EXTRA', null, null)).toBe('Πρόσθετη χρέωση');
  });

  it.each([
    [12050, 'εκατόν είκοσι ευρώ και πενήντα λεπτά'],
    [10000, 'εκατό ευρώ'],
    [100, 'ένα ευρώ'],
    [1, 'ένα λεπτό'],
    [50, 'πενήντα λεπτά'],
    [0, 'μηδέν ευρώ'],
    [131300, 'χίλια τριακόσια δεκατρία ευρώ'],
    [313400, 'τρεις χιλιάδες εκατόν τριάντα τέσσερα ευρώ'],
    [1400000, 'δεκατέσσερις χιλιάδες ευρώ'],
    [21100000, 'διακόσιες έντεκα χιλιάδες ευρώ'],
    [100000000, 'ένα εκατομμύριο ευρώ'],
    [-2500, 'μείον είκοσι πέντε ευρώ'],
  ])('%i cents are "%s"', (cents, words) => {
    expect(amountInWords(cents)).toBe(words);
  });

  it('says 1..999 999 without a double space or a dangling word', () => {
    for (let n = 1; n < 1_000_000; n += 997) {
      const w = greekNumberWords(n);
      expect(w).not.toMatch(/\s{2}|^\s|\s$/);
    }
  });
});
