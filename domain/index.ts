export * from './enums';
export * from './errors';
export * from './fields';
export * from './permissions';
export * from './text';
export * from './resources';
export * from './custom-fields';
export * from './references';
