export * from './platform';
export * from './users';
export * from './sessions';
export * from './history';
export * from './directory';
export * from './people';
export * from './lessons';
export * from './money';
