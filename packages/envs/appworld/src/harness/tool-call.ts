// The harness's tool-call shape and its text forms: the agent's action string
// `[{"name": "<app>__<api>", "parameters": {…}}]` and the `<tool_response>` observation.
import { API_REGISTRY } from '../engine/registry.js';
import type { CallResult } from '../engine/types.js';
import { allParams } from '../engine/validate.js';
import type { AppWorldSession } from '../engine/world.js';
import { paperResponseText } from './paper-protocol.js';
import { pyJsonDumps } from './py-json.js';

export interface ToolCall {
  name: string;
  /** Whatever the agent sent; the engine validates it. */
  parameters: unknown;
}

export function formatToolCall(call: ToolCall): string {
  return pyJsonDumps([{ name: call.name, parameters: call.parameters }]);
}

/** The observation text of a call result: the paper's server text (errors `{"error": "Response status code is n:\n…"}`) in `<tool_response>`. */
export function renderResult(r: CallResult): string {
  return wrapToolResponse(paperResponseText(r));
}

export function wrapToolResponse(json: string): string {
  return `<tool_response>\n${json}\n</tool_response>`;
}

/**
 * Runs tool calls the way the paper's scheduler does: the access token from an app's login is
 * injected into later calls to that app, so agents never handle tokens. Beyond the paper's
 * scheduler, an omitted `<app>_access_token` parameter (amazon's and gmail's
 * file_system_access_token) is filled the same way from that app's login: a token is valid in its
 * own episode only, so a plan that carried one (an expert demo replayed for SFT or eval) could
 * never win in another episode.
 */
export class ToolRunner {
  private readonly tokens = new Map<string, string>();

  /**
   * `passwordApps`: the apps whose credentials `supervisor__show_account_passwords` lists in the
   * paper's protocol (runPaperCall); a catalogue task's episode lists the apps the task needs too.
   */
  constructor(
    readonly session: AppWorldSession,
    readonly passwordApps?: readonly string[],
  ) {}

  run(call: ToolCall): CallResult {
    const app = typeof call.name === 'string' ? call.name.split('__')[0]! : '';
    const r = this.session.callTool(call.name, this.withTokens(app, call));
    if (r.ok && call.name.endsWith('__login') && typeof r.body === 'object' && r.body !== null && !Array.isArray(r.body)) {
      const t = (r.body as Record<string, unknown>).access_token;
      if (typeof t === 'string') this.tokens.set(app, t);
    }
    return r;
  }

  /** The call's parameters with the held tokens: the app's own access_token, and each `<app>_access_token` the API takes and the call omits. */
  private withTokens(app: string, call: ToolCall): unknown {
    const params = call.parameters;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return params;
    const out: Record<string, unknown> = { ...params };
    let added = false;
    const api = API_REGISTRY.get(call.name);
    for (const p of api ? allParams(api) : []) {
      const other = /^(\w+)_access_token$/.exec(p.name)?.[1];
      const held = other === undefined ? undefined : this.tokens.get(other);
      if (held !== undefined && !(p.name in out)) (out[p.name] = held), (added = true);
    }
    const own = this.tokens.get(app);
    if (own) (out.access_token = own), (added = true);
    return added ? out : params;
  }

  loggedIn(): string[] {
    return [...this.tokens.keys()];
  }
}
