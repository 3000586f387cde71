/**
 * What the generic CRUD module needs to know about one resource beyond its domain ResourceDef:
 * the table, the join tables behind REFERENCES fields, and the few hooks where a resource
 * differs (teachers own a sign-in, students carry custom fields, notes belong to an author).
 * Delete rules are not declared here: they follow from who references whom (registry.ts).
 */
import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { FieldDef, FieldErrors, ListQuery, ResourceDef, RowOf } from '../../domain/index';
import type { Actor } from '../context';
import type { Tx } from '../db/types';

/** The caller of one request: every query is scoped to tenantId. */
export interface Ctx {
  tenantId: number;
  actor: Actor | null;
  /** `<protocol>://<host>` the request came to, for links a write sends out (a portal invitation); absent outside a request. */
  origin?: string;
}

/** Who asks, as a kept statement's key names them: what they may see follows kind, id and role. */
export const actorKey = (ctx: Ctx) => (ctx.actor ? `${ctx.actor.kind}:${ctx.actor.id}:${ctx.actor.role}` : '');

/** A row as the API shows it: snake_case fields, labels beside references. */
export type Data = Record<string, unknown> & { id: number; version: number };

/** A join table behind a REFERENCES field, keyed (tenant_id, owner, other). */
export interface Link {
  table: PgTable;
  tenantId: AnyPgColumn;
  owner: AnyPgColumn;
  other: AnyPgColumn;
}

/** Per-request additions to the list whitelist (custom fields, the teachers' `deleted`). */
export interface ListExtras {
  /** Extra filter/sort names accepted by parseListQuery. */
  fields: FieldDef[];
  /** Sort expressions of those names. */
  sorts?: Record<string, SQL>;
  /** Conditions for the query's filters on those names (and defaults when absent). */
  where(query: ListQuery): SQL[];
  /**
   * The list's count and sums read from a table the database keeps for them, for a query it
   * fits (else undefined): a select of one row, `n` and each of the spec's totals by name, over
   * exactly the rows the list's conditions match.
   */
  tally?(query: ListQuery): SQL | undefined;
}

export interface WriteArgs {
  tx: Tx;
  ctx: Ctx;
  /** For hooks that write rows of another resource (a teacher's sign-in). */
  registry: Registry;
  /** Validated body without `version`; on update only the fields sent. */
  input: Record<string, unknown>;
  /** The row before the write (null on create). */
  before: Data | null;
}

/**
 * A write-only field kept transformed in a column of another name (password -> password_hash).
 * The transformation is slow work (argon2), so it runs before the transaction opens.
 */
export interface Secret {
  column: string;
  prepare(value: unknown): Promise<unknown>;
}

export interface ResourceSpec {
  def: ResourceDef;
  /** Has id, version, created_at, updated_at and search columns, and tenant_id unless the declaration's scope is 'platform'. */
  table: PgTable;
  /** The tenant whose history records a write of a platform row (a tenant's own history); the caller's by default. */
  historyTenant?(ctx: Ctx, row: Data): number;
  /** What other rows show as this row's label: `x: {id, name}`. */
  label: SQL;
  /**
   * The key a row's labels are ordered by, written from sort keys the table keeps: the same
   * text as sortKey(label), without folding every label as the query runs (personLabel).
   */
  labelSort?: SQL;
  links?: Record<string, Link>;
  /** Soft delete: the row stays, readable by id, with `deleted: true` (teachers). */
  deletedAt?: AnyPgColumn;
  /** Read-only values computed in SQL (e.g. contract summaries), exposed as fields. */
  computed?: Record<string, SQL>;
  /** A joined table contributing read-only fields (the teacher's username). */
  join?: { table: PgTable; on: SQL; fields: Record<string, AnyPgColumn> };
  /** Read-only values shown beside the declared fields (the teacher's user_id, a lesson's colour). */
  shown?: Record<string, AnyPgColumn | SQL>;
  /** Selected but not shown; present() may use them. */
  hidden?: Record<string, AnyPgColumn>;
  /** Sums over every row a list matches, answered beside the page as `totals` (money lists). */
  totals?: Record<string, SQL>;
  /**
   * A list page is prepared with the values of its query written in, so that its plan is
   * made for them (see WrittenStatement.valuesInText): for lists whose filters select very
   * different shares of the rows (a month unpaid, a value of a field). One prepared
   * statement per centre and query on each connection, where others share one per shape.
   */
  planPerValue?: boolean;
  /** Unique constraints a write may hit, by constraint name -> field: 409 conflict fields.<f>='taken'. */
  unique?: Record<string, string>;
  /** Write-only fields stored transformed; the history says they changed, never their values. */
  secrets?: Record<string, Secret>;
  /** Runs before the transaction on a validated body (slow work such as password hashing). */
  prepare?(input: Record<string, unknown>, action: 'create' | 'update'): Promise<Record<string, unknown>>;
  /** Body members a create takes beside the declared fields, for the hooks (a tenant's first ADMIN). */
  createExtras?: Record<string, z.ZodType>;
  /** Rows are made by a route of the resource's own module (a file by its upload): no JSON create. */
  createdElsewhere?: boolean;
  /** POST /import creates many rows at once, each as a create would (resources without secrets or prepare). */
  importable?: boolean;
  /** What an import does beyond a create per row (students: custom fields, bulk inserts). */
  imports?: ImportHooks;
  /** POST with an `id` updates that row, checking the version when one is given. */
  postUpdates?: boolean;
  /** DELETE keeps the row and sets its status INACTIVE, recorded as a delete. */
  deactivates?: boolean;
  listExtras?(tx: Tx, ctx: Ctx): Promise<ListExtras>;
  /**
   * The same from the centre's settings (custom fields), where a list's query depends on them:
   * `load` reads them, `extras` turns them into the list's names. Lists load them with every
   * page, in the same round trip as the page where the database allows it (see list.ts).
   */
  listSettings?: { load(tx: Tx, tenantId: number): Promise<unknown>; extras(settings: unknown, ctx: Ctx): ListExtras };
  /** Narrows what the caller may see (TEACHER: own notes); rows outside answer 404. */
  scope?(ctx: Ctx): SQL | undefined;
  /** Refuses a create or delete before anything is read (a TEACHER creating a lesson). */
  guard?(ctx: Ctx, action: 'create' | 'update' | 'delete'): void;
  /** Runs first in every write's transaction (lessons: the tenant's booking lock, taken before any row lock). */
  lockWrites?(tx: Tx, ctx: Ctx): Promise<void>;
  /** Refuses a write on a visible row (TEACHER editing someone else's note); `input` is the update's fields. */
  canWrite?(ctx: Ctx, before: Data, input?: Record<string, unknown>): void;
  /** Checks the input and returns extra column values (by SQL column name) for the write. */
  beforeWrite?(args: WriteArgs): Promise<Record<string, unknown> | undefined>;
  afterWrite?(args: WriteArgs & { after: Data }): Promise<void>;
  /** Replaces the default hard delete (teachers: soft; custom fields: discard values). */
  remove?(tx: Tx, ctx: Ctx, before: Data, options: Record<string, unknown>, registry: Registry): Promise<void>;
  /** Final touches on a loaded row (labels that need hidden columns). */
  present?(data: Record<string, unknown>): void;
}

/** One import row's own check: the input as it will be stored, or the row's field errors. */
export type ImportRowCheck = (input: Record<string, unknown>) => { ok: true; value: Record<string, unknown> } | { ok: false; fields: FieldErrors };

export interface ImportHooks {
  /**
   * Loaded once per import (the centre's custom-field definitions): checks every row beside
   * its body and references, its errors reported with theirs. With `bulk` it stands in for
   * `beforeWrite`, which the rows then do not run.
   */
  check?(tx: Tx, ctx: Ctx): Promise<ImportRowCheck>;
  /**
   * Valid rows go in batches (one insert per batch, one per join table, one for the history)
   * instead of a create each. Only for specs whose writes need no `beforeWrite` beyond
   * `check`, no `afterWrite` and no secrets.
   */
  bulk?: boolean;
  /** After an import of 500 rows or more, fresh planner statistics for the table (PGlite has no autovacuum). */
  analyze?: boolean;
}

/** What a reference points to: where its ids live and how its label reads. */
export interface Target {
  table: PgTable;
  tenantId: AnyPgColumn;
  id: AnyPgColumn;
  label: SQL;
  /** The label's sort key: the spec's labelSort, or sortKey(label). */
  labelSort: SQL;
  deletedAt?: AnyPgColumn;
}

export interface Incoming {
  spec: ResourceSpec;
  field: string;
}

/** All CRUD resources together (built by registry.ts), so each knows who points at it. */
export interface Registry {
  specs: Map<string, ResourceSpec>;
  targets: Map<string, Target>;
  /** Scalar REFERENCE fields pointing at each resource: they block its deletion. */
  blockers: Map<string, Incoming[]>;
  /** REFERENCES fields (join tables) pointing at each resource: removed with it. */
  links: Map<string, Array<Incoming & { link: Link }>>;
}

/**
 * A row the engine read (findRow, the `after` of a write), typed by its declaration: the engine
 * reads every declared field a role may read, so a hook, which runs with the full row, gets
 * each of them with its declared type.
 */
export const declaredRow = <R extends ResourceDef>(_def: R, data: Data): RowOf<R> & Data => data as RowOf<R> & Data;
