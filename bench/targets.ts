import type { FastifyInstance } from 'fastify';
import type { Database } from '../server/db/types';

/** The custom entity the bench defines, and the filtered, sorted page of its records it measures. */
export const RECORDS_SLUG = 'bench-exams';
/** The subject the measured page is filtered to. */
export const RECORDS_SUBJECT = 'Φυσική';
export const RECORDS_URL = `/api/custom-entities/${RECORDS_SLUG}/records?_start=0&_end=25&_sort=title&_order=asc&subject=${encodeURIComponent(RECORDS_SUBJECT)}`;
export const STUDENTS_URL = '/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE';

/** A seeded Frontis server in the bench's own process (server.ts starts it). */
export interface SeededServer {
  database: Database;
  app: FastifyInstance;
  address: string;
  /** Headers of a signed-in ROOT on the demo tenant (api client). */
  headers: Record<string, string>;
  seedSeconds: number;
  close(): Promise<void>;
}
