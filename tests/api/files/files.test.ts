// Files and folders on the default store: a folder under DATA_DIR (the harness gives each app its own).
import { filesSuite } from '../support/files-suite';

filesSuite('disk', () => ({}));
