// A strings file's shape (the provider's Tree), written here so this chunk imports nothing.
type Tree = { [key: string]: string | Tree };

// The English strings, every file of them: a chunk of their own, fetched when a visitor reads
// the app in English (providers/i18nProvider.ts merges them).
const files = import.meta.glob<Tree>('./en/*.json', { eager: true, import: 'default' });

export default Object.values(files);
