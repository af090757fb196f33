// Typed API definitions as data: every app is a table of these, interpreted by one generic
// validator and dispatcher (engine/dispatch.ts), so adding an API never touches the engine.
import type Database from 'better-sqlite3';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** AppWorld's parameter type strings (api_docs `type`). */
export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'list[string]' | 'list[number]' | 'number | integer | string';

export type Constraint =
  | { kind: 'min'; value: number }
  | { kind: 'max'; value: number }
  /** Strict bounds (AppWorld's `value > 0.0`, `< 1e+16`). */
  | { kind: 'exclusiveMin'; value: number }
  | { kind: 'exclusiveMax'; value: number }
  | { kind: 'minLength'; value: number }
  | { kind: 'maxLength'; value: number }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'email' };

export interface ParamDef {
  name: string;
  type: ParamType;
  required: boolean;
  description: string;
  default?: Json;
  constraints?: readonly Constraint[];
}

/** What a handler gets: the episode's database, the caller (from the token), the frozen clock. */
export interface ApiContext {
  db: Database.Database;
  app: string;
  /** The authenticated user id, or null for APIs that need no token. */
  userId: number | null;
  /** The raw access token of this call (logout revokes it). */
  accessToken: string | null;
  /** Frozen `YYYY-MM-DDTHH:MM:SS` of the episode. */
  now: string;
  /** The supervisor of the episode (supervisor APIs act for them). */
  supervisorId: number;
  revokeToken(token: string): void;
  /** The user a token of another app belongs to in this episode (cross-app calls, e.g. receipts into file_system), or null. */
  userOfToken(app: string, token: string): number | null;
  /** Signs an access token with this episode's key (valid in this episode only). */
  issueToken(app: string, username: string): string;
}

export type Args = Record<string, Json>;

export interface ApiDef {
  app: string;
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  description: string;
  /** Whether `access_token` is required (appended as the last parameter). */
  auth: boolean;
  params: readonly ParamDef[];
  /**
   * The success body's shape as AppWorld's API docs show it (`response_schemas.success`): an
   * example value whose keys and value types the handler's bodies follow (`engine/response-schema.ts`
   * checks them). Absent where not declared yet; api_docs then shows `{}`.
   */
  response?: Json;
  handler(ctx: ApiContext, args: Args): Json;
}

/** A failed API call: AppWorld's status code and `{"message": …}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: 401 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type CallResult = { ok: true; status: 200; body: Json } | { ok: false; status: number; body: { message: string } };
