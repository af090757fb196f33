// A world is a template database built once from a seed; a session is one episode's private copy
// (deserializing the template takes a fraction of a millisecond), with its own clock, supervisor and revoked tokens.
import Database from 'better-sqlite3';
import { DEFAULT_WORLD_SIZE, generateWorld, type WorldSize } from '../world/generate.js';
import { changeLogSql, DEFAULT_DATETIME } from '../world/schema.js';
import { accountUser } from './apps/shared/accounts.js';
import { EpisodeStart } from './episode-start.js';
import { API_REGISTRY } from './registry.js';
import { issueToken, newEpisodeKey, verifyToken } from './tokens.js';
import { ApiError, type ApiContext, type CallResult, type Json } from './types.js';
import { validateArgs } from './validate.js';

export const DEFAULT_WORLD_SEED = 7;

export class AppWorldTemplate {
  readonly image: Buffer;
  private readonly db: Database.Database;

  constructor(
    readonly seed: number = DEFAULT_WORLD_SEED,
    size: WorldSize = DEFAULT_WORLD_SIZE,
  ) {
    this.db = generateWorld(seed, size);
    this.db.exec(changeLogSql());
    this.image = this.db.serialize();
  }

  /** Read-only queries against the pristine world (task generation, prompts). */
  query<T>(sql: string, ...params: unknown[]): T[] {
    return this.db.prepare(sql).all(...params) as T[];
  }

  /**
   * A private copy for one episode. `setup` runs first (task preconditions); the change log is then
   * cleared and the start image kept, so evaluation sees only what the episode changed.
   */
  open(opts: { supervisorId: number; now?: string; strict?: boolean; setup?: (db: Database.Database) => void }): AppWorldSession {
    const db = new Database(this.image);
    let start = EpisodeStart.ofTemplate(this.image);
    if (opts.setup) {
      db.transaction(() => opts.setup!(db))();
      start = EpisodeStart.afterSetup(this.image, db);
      db.exec('DELETE FROM _changes');
    }
    return new AppWorldSession(db, opts.supervisorId, opts.now ?? DEFAULT_DATETIME, opts.strict ?? false, start);
  }
}

const templates = new Map<number, AppWorldTemplate>();
/** The template of a seed, built on first use and then shared by every episode of the process. */
export function sharedTemplate(seed: number = DEFAULT_WORLD_SEED): AppWorldTemplate {
  let t = templates.get(seed);
  if (!t) templates.set(seed, (t = new AppWorldTemplate(seed)));
  return t;
}

export class AppWorldSession {
  private readonly revoked = new Set<string>();
  /** Tokens issued in this episode (each login gets a distinct token). */
  private issued = 0;
  /** This episode's token key: tokens of other episodes (or processes) never verify here. */
  private readonly tokenKey = newEpisodeKey();
  private closed = false;

  constructor(
    readonly db: Database.Database,
    readonly supervisorId: number,
    readonly now: string,
    /** Reject unknown parameters (AppWorld's raise_on_extra_parameters); off by default, as upstream. */
    readonly strict: boolean,
    /** The episode's start state (the evaluator's "before"). */
    private readonly start: EpisodeStart,
  ) {}

  /** The database image at the start of the episode, built on first use. */
  get startImage(): Buffer {
    return this.start.bytes;
  }

  /** A fresh database at the start of the episode; the caller closes it. */
  openStart(): Database.Database {
    return this.start.open();
  }

  /** Calls `<app>__<api>` with raw arguments. Never throws: every failure is a status + message. */
  callTool(tool: string, args: unknown): CallResult {
    if (typeof tool !== 'string' || !tool.includes('__')) return fail(404, `No API named '${String(tool).slice(0, 200)}' found. Tool names look like <app>__<api>.`);
    const [app, ...rest] = tool.split('__');
    return this.call(app!, rest.join('__'), args);
  }

  call(app: string, apiName: string, args: unknown): CallResult {
    if (this.closed) return fail(409, 'This episode has ended; its database is closed.');
    const api = API_REGISTRY.get(`${app}__${apiName}`);
    if (!api) {
      const known = [...API_REGISTRY.values()].some((a) => a.app === app);
      return fail(404, known ? `No API named '${apiName.slice(0, 200)}' found in the ${app} app.` : `No app named '${app.slice(0, 200)}' found.`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return fail(422, 'Validation error. Reason: \nbody: value is not a valid dict');
    let userId: number | null = null;
    const token = (args as Record<string, unknown>).access_token;
    if (api.auth) {
      userId = typeof token === 'string' ? this.tokenUser(app, token) : null;
      if (userId === null) return fail(401, `You are either not authorized to access this ${app} API endpoint or your access token is missing, invalid or expired.`);
    }
    const v = validateArgs(api, args, this.strict);
    if (!v.ok) return fail(422, v.message);
    const ctx: ApiContext = {
      db: this.db,
      app,
      userId,
      accessToken: typeof token === 'string' ? token : null,
      now: this.now,
      supervisorId: this.supervisorId,
      revokeToken: (t) => this.revoked.add(t),
      userOfToken: (tokenApp, t) => this.tokenUser(tokenApp, t),
      issueToken: (tokenApp, username) => issueToken(this.tokenKey, tokenApp, username, this.now, this.issued++),
    };
    try {
      // One transaction per call: a handler that fails half-way leaves no partial writes.
      const body = this.db.transaction(() => api.handler(ctx, v.args))() as Json;
      return { ok: true, status: 200, body };
    } catch (e) {
      if (e instanceof ApiError) return fail(e.status, e.message);
      return fail(500, `Internal error in ${app}.${apiName}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private tokenUser(app: string, token: string): number | null {
    if (this.revoked.has(token)) return null;
    const username = verifyToken(this.tokenKey, token, app, this.now);
    if (username === null) return null;
    return accountUser(this, app, username)?.id ?? null;
  }

  close(): void {
    if (!this.closed) this.db.close();
    this.closed = true;
  }
}

function fail(status: number, message: string): CallResult {
  return { ok: false, status, body: { message } };
}
