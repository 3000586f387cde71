// The answers of non-CRUD routes, declared once (see shape.ts).
export { RecordRow } from './shape';
export * from './money';
export * from './lessons';
export * from './imports';
export * from './settings';
export * from './portal';
export * from './receipts';
