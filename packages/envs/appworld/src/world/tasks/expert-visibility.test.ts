// Does every action of the expert's demonstrations follow from text the agent was shown before it?
// Each demo is replayed through the agent's own path (AppworldEnv: the task prompt, then each
// `<tool_response>`), and every per-episode value a call passes — ids, emails, passwords, names,
// amounts — must occur in that text first; a tool outside the agent's tool list must have been
// named by an api_docs response first.
import { describe, expect, it } from 'vitest';
import { AppworldEnv } from '../../env.js';
import { HARNESS_TOOLS } from '../../harness/prompt.js';
import { parseToolCall } from '../../harness/parser.js';
import { allTasks, taskRef } from './catalog.js';
import { runExpert } from './run-expert.js';

/** Parameters whose values are API vocabulary, the same in every task (a policy learns them from the demos), or paging. */
const VOCABULARY = new Set(['page_index', 'page_limit', 'sort_by', 'entry_type', 'direction', 'status', 'priority', 'recursive', 'overdue', 'read', 'is_completed', 'delete_directory']);
/** Texts the expert composes (an answer it computed, a message body it writes); what they are made of is checked by the task's tests. */
const COMPOSED = new Set(['supervisor__complete_task.answer', 'gmail__send_email.body', 'simple_note__create_note.content']);

function leaves(v: unknown, out: (string | number)[] = []): (string | number)[] {
  if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) leaves(x, out);
  else if (typeof v === 'string' || typeof v === 'number') out.push(v);
  return out;
}

describe("the AppWorld expert reads before it uses (its demos replayed through the agent's env)", () => {
  it('every per-episode value of every call was in the task prompt or an earlier response; every unlisted tool was named by api_docs first', async () => {
    const unseen: string[] = [];
    let calls = 0;
    let won = 0;
    for (const task of allTasks()) {
      const env = new AppworldEnv();
      const first = await env.reset(taskRef(task));
      const shownText = [first.text];
      const shownValues = new Set<string>();
      for (const action of runExpert(task).actions) {
        const call = parseToolCall(action)!;
        const [app, api] = call.name.split('__') as [string, string];
        if (!HARNESS_TOOLS.includes(call.name) && !shownText.some((t) => t.includes(`"name": "${api}"`)) && app !== 'api_docs')
          unseen.push(`${task.id} ${task.scenario.name}: tool ${call.name} before api_docs named it`);
        for (const [param, value] of Object.entries(call.parameters as Record<string, unknown>)) {
          if (VOCABULARY.has(param) || COMPOSED.has(`${call.name}.${param}`) || param === 'app_name') continue;
          for (const leaf of leaves(value)) {
            const s = String(leaf);
            if (!shownValues.has(s) && !shownText.some((t) => t.includes(s))) unseen.push(`${task.id} ${task.scenario.name}: ${call.name}.${param} = ${JSON.stringify(leaf)}`);
          }
        }
        const r = await env.step(action);
        calls++;
        shownText.push(r.observation.text);
        const body = r.observation.text.replace(/^<tool_response>\n|\n<\/tool_response>$/g, '');
        for (const leaf of leaves(JSON.parse(body))) shownValues.add(String(leaf));
        if (r.done) won += r.info.won ? 1 : 0;
      }
      await env.close();
    }
    console.log(`appworld expert: ${allTasks().length} demos, ${calls} calls replayed through the agent's env, ${won} won, ${unseen.length} values or tools used before they were shown`);
    expect(unseen).toEqual([]);
    expect(won).toBe(allTasks().length);
  }, 120_000);
});
