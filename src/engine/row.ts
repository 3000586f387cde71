import type { BaseRecord } from '@refinedev/core';

/** A row as the API answers it: an id, the version writes send back, and the declared fields. */
export type Row = BaseRecord & { id: number; version?: number } & Record<string, unknown>;
