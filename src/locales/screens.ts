import { LANGUAGES, type Language } from '../../domain/enums';
import { i18n, merge, translations, type Tree } from '../providers/i18nProvider';

// The strings of the screens behind sign-in (everything but common.json and errors.json, which
// the sign-in page loads): imported by App, so they are not part of the /login bundle.
const files = import.meta.glob<Tree>(['./*/*.json', '!./*/common.json', '!./*/errors.json'], { eager: true, import: 'default' });

for (const [path, tree] of Object.entries(files)) {
  const language = path.split('/').at(-2) as Language;
  if (!LANGUAGES.includes(language)) continue;
  merge(translations[language], tree);
  i18n.addResourceBundle(language, 'translation', tree, true, true);
}
