// The slice of better-sqlite3's API this package uses. The workspace has no @types/better-sqlite3
// and new dependencies are avoided, so the types live here (checked against better-sqlite3 12.6).
declare module 'better-sqlite3' {
  namespace Database {
    interface RunResult {
      changes: number;
      lastInsertRowid: number | bigint;
    }
    interface Statement<P extends unknown[] = unknown[]> {
      run(...params: P): RunResult;
      get(...params: P): unknown;
      all(...params: P): unknown[];
    }
    interface Database {
      prepare<P extends unknown[] = unknown[]>(sql: string): Statement<P>;
      exec(sql: string): Database;
      transaction<F extends (...args: never[]) => unknown>(fn: F): F;
      serialize(): Buffer;
      pragma(source: string): unknown;
      close(): Database;
      readonly open: boolean;
    }
    interface Options {
      readonly?: boolean;
    }
  }
  interface DatabaseConstructor {
    new (filename?: string | Buffer, options?: Database.Options): Database.Database;
  }
  const Database: DatabaseConstructor;
  export = Database;
}
