/**
 * The Greek tax number (ΑΦΜ): nine digits, the last a check digit. Each of the first eight
 * is weighted by a power of two (2^8 for the first … 2^1 for the eighth); the sum modulo 11,
 * then modulo 10, must equal the ninth. All zeros is not a number anyone holds.
 */
export function isValidTaxId(value: string): boolean {
  if (!/^\d{9}$/.test(value) || value === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(value[i]) * 2 ** (8 - i);
  return (sum % 11) % 10 === Number(value[8]);
}
