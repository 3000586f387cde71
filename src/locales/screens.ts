import { DEFAULT_LANGUAGE } from '../../domain/enums';
import { i18n, merge, translations, type Tree } from '../providers/i18nProvider';

// The Greek strings of the screens behind sign-in (everything but common.json and errors.json,
// which the sign-in page loads): imported by App, so they are not part of the /login bundle.
// Another language comes whole when it is chosen (providers/i18nProvider.ts).
const files = import.meta.glob<Tree>(['./el/*.json', '!./el/common.json', '!./el/errors.json'], { eager: true, import: 'default' });

for (const tree of Object.values(files)) {
  merge(translations[DEFAULT_LANGUAGE], tree);
  i18n.addResourceBundle(DEFAULT_LANGUAGE, 'translation', tree, true, true);
}
