// The expert's view of an episode: a program calls tools through the same runner the agent uses,
// and every call is recorded as the agent's action string (the expert demo). It reads only what
// the agent is shown: each call answers the text of the paper's protocol (runPaperCall), parsed —
// the passwords call its `[{app, username, password}]` listing, not the engine's own body — and
// before its first call of an API the agent's tool list does not name, it reads that app's API list
// (api_docs__show_api_descriptions), as the agent's prompt tells it to. Per-episode values (ids,
// emails, passwords, amounts) therefore come from the instruction or an earlier response; what
// stays constant across tasks (parameter names and formats, the date of the world) is the API
// knowledge a policy learns from the demonstrations.
import type { Json } from '../../engine/types.js';
import { PAGE_LIMIT_MAX } from '../../engine/params.js';
import { runPaperCall } from '../../harness/paper-protocol.js';
import { HARNESS_TOOLS } from '../../harness/prompt.js';
import { formatToolCall, type ToolRunner } from '../../harness/tool-call.js';
import type { Supervisor } from './types.js';

const LISTED = new Set(HARNESS_TOOLS);

export class ExpertContext {
  readonly actions: string[] = [];
  private credentials: Map<string, { username: string; password: string }> | null = null;
  /** Apps whose API list the expert has read. */
  private readonly discovered = new Set<string>();

  constructor(
    private readonly runner: ToolRunner,
    readonly supervisor: Supervisor,
  ) {}

  /** Calls a tool and returns the response the agent sees; an error response means the expert program is wrong, so it throws. */
  call(name: string, parameters: Record<string, Json> = {}): Json {
    const app = name.split('__')[0]!;
    if (!LISTED.has(name) && !this.discovered.has(app)) {
      this.discovered.add(app);
      this.call('api_docs__show_api_descriptions', { app_name: app });
    }
    this.actions.push(formatToolCall({ name, parameters }));
    const { result, text } = runPaperCall(this.runner, { name, parameters });
    if (!result.ok) throw new Error(`expert: ${name}(${JSON.stringify(parameters)}) failed with ${result.status}: ${result.body.message}`);
    return JSON.parse(text) as Json;
  }

  /** Logs into an app with the credentials the passwords call lists (read once); returns the access token (for cross-app parameters such as file_system_access_token). */
  login(app: string): string {
    if (!this.credentials) {
      const rows = this.call('supervisor__show_account_passwords') as { app: string; username: string; password: string }[];
      this.credentials = new Map(rows.map((r) => [r.app, { username: r.username, password: r.password }]));
    }
    const c = this.credentials.get(app);
    if (!c) throw new Error(`expert: the passwords call lists no ${app} account`);
    return (this.call(`${app}__login`, { username: c.username, password: c.password }) as { access_token: string }).access_token;
  }

  /** Every page of a list API (page_limit 20), stopping at the first empty page. */
  all<T = Record<string, Json>>(name: string, parameters: Record<string, Json> = {}): T[] {
    const out: T[] = [];
    for (let page = 0; ; page++) {
      const rows = this.call(name, { ...parameters, page_index: page, page_limit: PAGE_LIMIT_MAX }) as T[];
      if (!Array.isArray(rows) || rows.length === 0) return out;
      out.push(...rows);
    }
  }

  complete(answer?: Json): void {
    this.call('supervisor__complete_task', answer === undefined ? {} : { answer });
  }
}
