// Search text folding: case- and accent-insensitive for Greek and Latin scripts, so that
// "παπαδοπουλος" finds "Παπαδόπουλος". The server stores this form beside searchable fields.
export function normalizeSearch(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .replace(/\s+/g, ' ')
    .trim();
}
