// Typed reads of the episode database. better-sqlite3 answers `unknown` rows, so every read used to
// cast its result at the call site (`.get(id) as SongRow | undefined`); here a table or a SELECT
// names its row type once, beside its SQL, and call sites get typed rows with no cast. The SQL each
// helper runs is exactly its head and the caller's tail joined by one space, so reads are unchanged.
import type { ApiContext } from './types.js';

/** Whatever holds the episode's database (an ApiContext, or a bare `{ db }`). */
export type DbHolder = Pick<ApiContext, 'db'>;

/** Typed reads over one SELECT head (`SELECT … FROM … JOIN …`): the caller adds WHERE/ORDER BY. */
export interface Reads<R> {
  readonly sql: string;
  /** The first row of `<sql> <tail>`, or undefined. */
  one(ctx: DbHolder, tail: string, ...params: unknown[]): R | undefined;
  /** Every row of `<sql> <tail>`. */
  all(ctx: DbHolder, tail?: string, ...params: unknown[]): R[];
}

/** One table's rows (`SELECT * FROM <name>`), with the lookup by primary key every app needs. */
export interface Table<R> extends Reads<R> {
  readonly name: string;
  byId(ctx: DbHolder, id: unknown): R | undefined;
}

const joined = (head: string, tail: string | undefined) => (tail === undefined || tail === '' ? head : `${head} ${tail}`);

/** Typed reads of `head`, a SELECT whose columns make an `R`. */
export function select<R>(head: string): Reads<R> {
  return {
    sql: head,
    one: (ctx, tail, ...params) => ctx.db.prepare<unknown[], R>(joined(head, tail)).get(...params),
    all: (ctx, tail, ...params) => ctx.db.prepare<unknown[], R>(joined(head, tail)).all(...params),
  };
}

/** The table `name`, whose rows are `R`. */
export function table<R>(name: string): Table<R> {
  const reads = select<R>(`SELECT * FROM ${name}`);
  return { ...reads, name, byId: (ctx, id) => reads.one(ctx, 'WHERE id = ?', id) };
}

/** The first row of an ad-hoc query (a projection used in one place), typed as `R`. */
export function row<R>(ctx: DbHolder, sql: string, ...params: unknown[]): R | undefined {
  return ctx.db.prepare<unknown[], R>(sql).get(...params);
}

/** Every row of an ad-hoc query, typed as `R`. */
export function rows<R>(ctx: DbHolder, sql: string, ...params: unknown[]): R[] {
  return ctx.db.prepare<unknown[], R>(sql).all(...params);
}

/** `n` of a `SELECT count(*) AS n …` query. */
export function count(ctx: DbHolder, sql: string, ...params: unknown[]): number {
  return ctx.db.prepare<unknown[], { n: number }>(sql).get(...params)!.n;
}

/** The `id` column of every row of a `SELECT id …` query, in order. */
export function ids(ctx: DbHolder, sql: string, ...params: unknown[]): number[] {
  return ctx.db
    .prepare<unknown[], { id: number }>(sql)
    .all(...params)
    .map((r) => r.id);
}

/** Whether the query returns a row (`SELECT 1 FROM … WHERE …`). */
export function exists(ctx: DbHolder, sql: string, ...params: unknown[]): boolean {
  return ctx.db.prepare(sql).get(...params) !== undefined;
}
