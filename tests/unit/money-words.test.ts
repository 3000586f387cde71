import { describe, expect, it } from 'vitest';
import { formatMoney, parseEuro } from '../../src/components/fields/format';
import { euroInWords, numberInWords } from '../../src/resources/money/words';

// What a receipt writes beside the figure, and how money reads and parses in Greek.
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
