// World-model prompts (the task grounding prompt and the action-local prompt with
// `## COMPUTED QUERY STATE`) and the deterministic local responder of the paper's harness.
import type { ChatMessage, ResponderContext } from '@diffworld/env-core';
import { API_REGISTRY } from '../engine/registry.js';
import type { Json } from '../engine/types.js';
import { validateArgs } from '../engine/validate.js';
import { sharedTemplate } from '../engine/world.js';
import { DEFAULT_DATETIME } from '../world/schema.js';
import { passwordAppsOf } from '../world/tasks/catalog.js';
import type { AppworldTask } from '../world/tasks/types.js';
import { parseToolCall } from './parser.js';
import { taskTools, toolSignature } from './prompt.js';
import { pyJsonDumps } from './py-json.js';
import { BY_ID_TOOL, parseRecords, renderRecords, SECTION_BY_TOOL, taskRecords, type RecordValue, type Records } from './records.js';
import type { ToolCall } from './tool-call.js';

const CURRENT_DATE = 'Thursday, May 18, 2023 12:00 PM';

/** The credentials the task's passwords call lists in the real engine (passwordAppsOf), in its order. */
function credentialLines(task: AppworldTask): string[] {
  const pw = new Map(
    sharedTemplate(task.worldSeed)
      .query<{ app: string; password: string }>('SELECT app, password FROM accounts WHERE user_id = ?', task.supervisor.id)
      .map((r) => [r.app, r.password]),
  );
  return passwordAppsOf(task).flatMap((app) => (pw.has(app) ? [`- ${app}: username=${app === 'phone' ? task.supervisor.phone_number : task.supervisor.email}, password=${pw.get(app)}`] : []));
}

/** The task-level grounding prompt (the reference's wm_system_prompt, in the dataset section layout). */
export function groundingPrompt(task: AppworldTask, records: Records = taskRecords(task)): string {
  const s = task.supervisor;
  return [
    '## ENVIRONMENT STATE',
    `User identity: ${s.first_name} ${s.last_name}, email ${s.email}, phone ${s.phone_number}`,
    'Account credentials:',
    ...credentialLines(task),
    `Active task: ${task.variant.instruction}`,
    `Current date: ${CURRENT_DATE} (${DEFAULT_DATETIME})`,
    renderRecords(records),
    '## TASK CONTEXT',
    'Predict the AppWorld tool response (strict JSON inside <tool_response> tags) to the agent action in the user turn.',
    '## TOOL SCHEMAS',
    ...taskTools(task).map((t) => `- ${toolSignature(t)}`),
    '## DOMAIN RULES',
    'Apps other than supervisor need a login first; calls before it fail with 401. Invalid arguments fail with 422 "Validation error". List tools return at most page_limit records (default 5, max 20).',
    '## STEERING DIRECTIVES',
    'Ground every value in the records above. If uncertain, output an error object rather than inventing records.',
    'PREDICTION TARGET: The tool response for the action in the user turn.',
  ].join('\n');
}

function argsOf(call: ToolCall): Record<string, unknown> {
  const p = call.parameters;
  return typeof p === 'object' && p !== null && !Array.isArray(p) ? { ...(p as Record<string, unknown>) } : {};
}

/** Why a call is invalid, or null (the harness's validation_status). */
export function validationError(call: ToolCall): string | null {
  const api = API_REGISTRY.get(call.name);
  if (!api) return `Unknown tool: ${call.name}`;
  const args = argsOf(call);
  if (JSON.stringify(args).includes('{"type"')) return 'Invalid argument values: schema/type dictionaries are not runtime values';
  const v = validateArgs({ ...api, auth: false }, args);
  return v.ok ? null : v.message;
}

interface Page {
  matched: number;
  index: number;
  limit: number;
  records: Record<string, RecordValue>[];
}

/** Filter, then paginate (page_index ≥ 0, page_limit clamped to 1..20, default 5). */
export function computeQuery(call: ToolCall, records: Records): Page | null {
  const spec = SECTION_BY_TOOL[call.name];
  if (!spec) return null;
  const a = argsOf(call);
  let rows = records[spec.section] ?? [];
  const q = typeof a.query === 'string' ? a.query.toLowerCase() : '';
  if (q) rows = rows.filter((r) => Object.values(r).some((v) => String(v).toLowerCase().includes(q)));
  if (call.name === 'spotify__show_liked_songs') rows = rows.filter((r) => r.liked === true);
  if (typeof a.genre === 'string') rows = rows.filter((r) => r.genre === a.genre);
  if (typeof a.relationship === 'string') rows = rows.filter((r) => Array.isArray(r.relationships) && (r.relationships as string[]).includes(String(a.relationship).toLowerCase()));
  if (typeof a.direction === 'string') rows = rows.filter((r) => r.direction === a.direction);
  if (typeof a.user_email === 'string') rows = rows.filter((r) => r.user_email === a.user_email);
  if (typeof a.min_created_at === 'string') rows = rows.filter((r) => String(r.created_at ?? '9') >= String(a.min_created_at));
  if (typeof a.max_created_at === 'string') rows = rows.filter((r) => String(r.created_at ?? '0').slice(0, 10) <= String(a.max_created_at));
  if (typeof a.status === 'string') rows = rows.filter((r) => (r.approved_at ? 'approved' : r.denied_at ? 'denied' : 'pending') === a.status);
  if (call.name === 'file_system__show_directory') {
    const dir = typeof a.directory_path === 'string' ? a.directory_path.replace(/^~\//, '') : '';
    rows = rows.filter(
      (r) => String(r.path).includes(dir.replace(/^\/home\/\w+\//, '')) && (a.entry_type !== 'files' || r.type === 'file') && (a.entry_type !== 'directories' || r.type === 'directory'),
    );
    if (typeof a.substring === 'string') rows = rows.filter((r) => String(r.path).toLowerCase().includes(String(a.substring).toLowerCase()));
  }
  const index = Number.isInteger(a.page_index) && (a.page_index as number) >= 0 ? (a.page_index as number) : 0;
  const limit = Number.isInteger(a.page_limit) ? Math.min(20, Math.max(1, a.page_limit as number)) : 5;
  return { matched: rows.length, index, limit, records: rows.slice(index * limit, index * limit + limit) };
}

/** The action-local WM prompt of the paper's harness, with `## COMPUTED QUERY STATE` for valid list calls. */
export function actionWmPrompt(task: AppworldTask, call: ToolCall, records: Records = taskRecords(task)): string {
  const error = validationError(call);
  const page = error ? null : computeQuery(call, records);
  const spec = SECTION_BY_TOOL[call.name];
  const args = argsOf(call);
  delete args.access_token;
  const lines = [
    '## ENVIRONMENT STATE',
    'The environment is AppWorld tool-response prediction.',
    `Active task: ${task.variant.instruction}`,
    `Current date: ${CURRENT_DATE}`,
    'Account credentials:',
    ...credentialLines(task),
    renderRecords(records),
    'Active tool call:',
    `- tool_name: ${call.name}`,
    `- arguments: ${pyJsonDumps(args, { sortKeys: true })}`,
    `- validation_status: ${error ? 'invalid' : 'valid'}`,
    `- validation_error: ${error ?? 'null'}`,
    '## TASK CONTEXT',
    'Predict only the JSON tool response for this one AppWorld action. Use the records above; do not invent records.',
    '## TOOL SCHEMAS',
    `- ${API_REGISTRY.has(call.name) ? toolSignature(call.name) : call.name + '(unknown tool)'}`,
    spec ? `- returns {"total": N, "${spec.key}": [records of section ${spec.section}]}` : '- returns a JSON object',
    '- failures return {"error": "<message>"}',
    '## DOMAIN RULES',
    'Invalid arguments or unknown tools produce an error object. Output strict JSON only (true/false/null), no markdown or think text. Wrap the final JSON in <tool_response> only if the model requires tags.',
  ];
  if (page) {
    lines.push(
      '## COMPUTED QUERY STATE',
      `matched_count_after_filters: ${page.matched}`,
      `page_index: ${page.index}`,
      `page_limit: ${page.limit}`,
      `page_offset: ${page.index * page.limit}`,
      `records_on_this_page: ${page.records.length}`,
      'Strict JSON records for this response page:',
      JSON.stringify(page.records, null, 2),
    );
  }
  lines.push(
    '## STEERING DIRECTIVES',
    error
      ? `Expected status: error. Respond exactly with {"error": ${JSON.stringify(error)}}`
      : `Expected status: success.${spec ? ` Filter before paginating; respond with {"total": N, "${spec.key}": [...]}.` : ''}`,
    'PREDICTION TARGET: The strict JSON tool response for the action in the user turn.',
  );
  return lines.join('\n');
}

/** Apps logged into successfully so far, read from the conversation. */
export function loggedInApps(history: readonly ChatMessage[]): Set<string> {
  const apps = new Set<string>();
  for (let i = 0; i < history.length - 1; i++) {
    const m = history[i]!;
    if (m.role !== 'assistant') continue;
    const call = parseToolCall(m.content);
    const reply = history[i + 1]!;
    if (call?.name.endsWith('__login') && reply.content.includes('<tool_response>') && !reply.content.includes('"error"')) apps.add(call.name.split('__')[0]!);
  }
  return apps;
}

function credentials(prompt: string): Map<string, { username: string; password: string }> {
  const out = new Map<string, { username: string; password: string }>();
  for (const m of prompt.matchAll(/^- (\w+): username=(\S+), password=(\S+)$/gm)) out.set(m[1]!, { username: m[2]!, password: m[3]! });
  return out;
}

/**
 * The deterministic responder: validation, auth, list/search from the prompt's records with
 * filters and pagination, login, mutations; undefined defers to the world model.
 */
export function localResponder(ctx: ResponderContext): string | undefined {
  const call = parseToolCall(ctx.action);
  if (!call) return undefined;
  const args = argsOf(call);
  const reply = (body: unknown) => pyJsonDumps(body);
  if (!API_REGISTRY.has(call.name)) return reply({ error: `Unknown tool: ${call.name}` });
  if (JSON.stringify(args).includes('{"type"')) return reply({ error: 'Invalid argument values: schema/type dictionaries are not runtime values' });
  const [app] = call.name.split('__') as [string];
  if (call.name === 'supervisor__show_account_passwords') {
    const creds = credentials(ctx.system);
    return creds.size ? reply([...creds].map(([a, c]) => ({ app: a, username: c.username, password: c.password }))) : reply({ error: 'No credentials found in context' });
  }
  if (call.name.endsWith('__login')) {
    const c = credentials(ctx.system).get(app);
    if (!c || c.username !== String(args.username ?? '') || c.password !== String(args.password ?? '')) return reply({ error: 'Invalid username or password' });
    return reply({ access_token: 'tok_valid', token_type: 'Bearer' });
  }
  // api_docs is documentation, the same in every world: answer it from the registry, as the engine does.
  if (app === 'api_docs') {
    const docs = sharedTemplate().open({ supervisorId: 1 });
    try {
      const r = docs.callTool(call.name, args as Record<string, Json>);
      return r.ok ? reply(r.body) : reply({ error: (r.body as { message?: string }).message ?? `status ${r.status}` });
    } finally {
      docs.close();
    }
  }
  if (call.name === 'supervisor__complete_task') return validationError(call) ? reply({ error: validationError(call) }) : reply({ message: 'Marked the active task complete.' });
  const records = parseRecords(ctx.system);
  const byId = BY_ID_TOOL[call.name];
  if (byId) {
    const want = String(args[byId.arg] ?? '').replace(/^~\//, '');
    const hit = (records[byId.section] ?? []).find((r) => String(r[byId.idKey]) === want || String(r[byId.idKey]).endsWith('/' + want));
    if (!hit) return reply({ error: 'Record not found' });
  }
  if (app !== 'supervisor' && app !== 'api_docs' && call.name !== 'spotify__search_songs' && !loggedInApps(ctx.history).has(app)) return reply({ error: '401 Unauthorized. Please login first.' });
  const error = validationError(call);
  if (error) return reply({ error });
  const page = computeQuery(call, records);
  if (page) return reply({ total: page.matched, [SECTION_BY_TOOL[call.name]!.key]: page.records });
  if (byId)
    return reply((records[byId.section] ?? []).find((r) => String(r[byId.idKey]) === String(args[byId.arg]) || String(r[byId.idKey]).endsWith('/' + String(args[byId.arg]).replace(/^~\//, ''))));
  if (/__(like|unlike|follow|unfollow|create|delete|update|add|remove|send|approve|deny|move|copy|download)_/.test(call.name)) return reply({ status: 'success', message: 'Action completed' });
  return undefined;
}
