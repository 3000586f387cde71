// The declaration files, each once: every ResourceDef they export is a resource (RESOURCES in
// ./index.ts collects them) and is re-exported by name. A resource declared in one of these
// files needs no other line here; a new file of declarations is one more line.
export * from './directory';
export * from './files';
export * from './lessons';
export * from './money';
export * from './people';
export * from './tenants';
export * from './users';
