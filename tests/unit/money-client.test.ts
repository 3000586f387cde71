// The client's money: amounts in Greek words on a receipt, euro shown and typed, an overpayment explained.
import { describe, expect, it } from 'vitest';
import { formatMoney, parseEuro } from '../../src/engine/fields/format';
import { errorText, toHttpError } from '../../src/providers/errors';
import { ApiError } from '../../src/providers/http';
import '../../src/providers/i18nProvider';
import { euroInWords, numberInWords } from '../../src/resources/money/words';

describe('amounts in Greek words', () => {
  it.each([
    [0, 'μηδέν ευρώ'],
    [100, 'ένα ευρώ'],
    [1, 'ένα λεπτό'],
    [50, 'πενήντα λεπτά'],
    [12050, 'εκατόν είκοσι ευρώ και πενήντα λεπτά'],
    [10000, 'εκατό ευρώ'],
    [31400, 'τριακόσια δεκατέσσερα ευρώ'],
    [100000, 'χίλια ευρώ'],
    [123456, 'χίλια διακόσια τριάντα τέσσερα ευρώ και πενήντα έξι λεπτά'],
    [300000, 'τρεις χιλιάδες ευρώ'],
    [21400000, 'διακόσιες δεκατέσσερις χιλιάδες ευρώ'],
    [100000000, 'ένα εκατομμύριο ευρώ'],
    [-250, 'μείον δύο ευρώ και πενήντα λεπτά'],
  ])('%i cents -> %s', (cents, words) => {
    expect(euroInWords(cents)).toBe(words);
  });

  it('counts thousands in the feminine and units in the gender asked', () => {
    expect(numberInWords(4, 'feminine')).toBe('τέσσερις');
    expect(numberInWords(4)).toBe('τέσσερα');
    expect(numberInWords(2_500_000)).toBe('δύο εκατομμύρια πεντακόσιες χιλιάδες');
  });

  it('money shows as Greek euro and typed euro become cents', () => {
    expect(formatMoney(150000)).toBe('1.500,00 €');
    expect(parseEuro('1.500,5')).toBe(150050);
    expect(parseEuro('12.50')).toBe(1250);
  });
});

describe('an overpayment refused by the server', () => {
  const refused = (owed: number) =>
    new ApiError(
      409,
      'conflict',
      'This payment exceeds what is still owed.',
      { amount: 'too-large' },
      { error: { code: 'conflict', message: 'x', fields: { amount: 'too-large' }, details: { owed } } },
      {},
    );

  it('says in Greek what is still owed, in euro', () => {
    expect(errorText(refused(7000))).toBe('Το ποσό υπερβαίνει ό,τι οφείλεται ακόμη (70,00 €).');
    expect(toHttpError(refused(0)).message).toBe('Το ποσό υπερβαίνει ό,τι οφείλεται ακόμη (0,00 €).');
  });

  it('marks the amount field', () => {
    expect(Object.keys(toHttpError(refused(100)).errors ?? {})).toEqual(['amount']);
  });
});
