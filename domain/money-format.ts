// Money as people read it. Apart from the money rules (money.ts) because it imports nothing:
// the sign-in page's error texts use it without loading the declarations.

/** Integer euro cents in the Greek format: 123456 -> "1.234,56 €", -5 -> "-0,05 €". */
export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return '';
  const negative = cents < 0;
  const abs = Math.round(Math.abs(cents));
  const euros = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const rest = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}${euros},${rest} €`;
}
