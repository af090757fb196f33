// The harness's tool-call shape and its text forms: the agent's action string
// `[{"name": "<app>__<api>", "parameters": {…}}]` and the `<tool_response>` observation.
import type { CallResult } from '../engine/types.js';
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
 * injected into later calls to that app, so agents never handle tokens.
 */
export class ToolRunner {
  private readonly tokens = new Map<string, string>();

  constructor(readonly session: AppWorldSession) {}

  run(call: ToolCall): CallResult {
    const app = typeof call.name === 'string' ? call.name.split('__')[0]! : '';
    let params = call.parameters;
    const token = this.tokens.get(app);
    if (token && typeof params === 'object' && params !== null && !Array.isArray(params)) params = { ...params, access_token: token };
    const r = this.session.callTool(call.name, params);
    if (r.ok && call.name.endsWith('__login') && typeof r.body === 'object' && r.body !== null && !Array.isArray(r.body)) {
      const t = (r.body as Record<string, unknown>).access_token;
      if (typeof t === 'string') this.tokens.set(app, t);
    }
    return r;
  }

  loggedIn(): string[] {
    return [...this.tokens.keys()];
  }
}
