// World-model corpus rows from real-engine episodes: the expert's episode and perturbed copies
// (wrong arguments, calls before login, unknown tools, paging past the end). Layout 'transition'
// (the paper's): each step one row {system: action-local grounding prompt, user: "State:
// <json.dumps(history)>\n\nAction: <action>", assistant: the engine's observation}. Layout
// 'episode': one row per episode built by the dataset's worldModelRowMessages from the last step's
// request, exactly as the simulated env asks the world model: so its system prompt is the LAST
// action's grounding (AppWorld grounds each action on its own records; earlier observations are
// trained under it), earlier actions are the agent's tool-call texts as the history holds them, and
// the last one is the scheduler's JSON call (wmActionText), as at inference.
import { Rng, hashSeed, roundRobin, type ChatMessage, type CorpusRequest, type PromptSet } from '@diffworld/env-core';
import { worldModelRowMessages, type WorldModelLayout } from '@diffworld/dataset';
import { parseToolCall } from './harness/parser.js';
import { agentSystemPromptWith } from './paper/prompts.js';
import { pyJsonDumps } from './harness/py-json.js';
import { taskRecords } from './harness/records.js';
import { runPaperCall } from './harness/paper-protocol.js';
import { formatToolCall, wrapToolResponse } from './harness/tool-call.js';
import { actionWmPrompt } from './harness/wm.js';
import { wmActionText } from './simulated-env.js';
import { startEpisode, taskPrompt, tasksOf } from './world/tasks/catalog.js';
import { runExpert } from './world/tasks/run-expert.js';
import type { AppworldTask } from './world/tasks/types.js';

export interface CorpusRow {
  /** [system, user, assistant] in the transition layout; the whole episode in the episode layout. */
  messages: ChatMessage[];
}

const PERTURBATIONS: ((rng: Rng, task: AppworldTask) => string)[] = [
  () => formatToolCall({ name: 'spotify__show_playlist_library', parameters: { page_limit: 50 } }),
  () => formatToolCall({ name: 'venmo__show_transactions', parameters: { page_index: 99, page_limit: 20 } }),
  () => formatToolCall({ name: 'spotify__search_tracks', parameters: { query: 'love' } }),
  (_r, t) => formatToolCall({ name: 'phone__login', parameters: { username: t.supervisor.email, password: 'wrong' } }),
  () => formatToolCall({ name: 'simple_note__create_note', parameters: {} }),
  (rng) => formatToolCall({ name: 'file_system__show_file', parameters: { file_path: `~/documents/missing_${rng.int(1, 99)}.txt` } }),
  () => formatToolCall({ name: 'supervisor__show_profile', parameters: {} }),
  () => formatToolCall({ name: 'phone__get_current_date_and_time', parameters: {} }),
];

/** The actions of one episode: the expert's, or a perturbed copy (seeded by `variant`). */
export function episodeActions(task: AppworldTask, variant: number): string[] {
  const expert = runExpert(task).actions;
  if (variant === 0) return expert;
  const rng = new Rng(hashSeed(`${task.id}:perturb:${variant}`));
  const out = expert.slice(0, -1); // keep complete_task last
  for (let k = rng.int(1, 3); k > 0; k--) out.splice(rng.int(0, out.length), 0, rng.pick(PERTURBATIONS)(rng, task));
  return [...out, expert[expert.length - 1]!];
}

/** Plays the actions in the real engine and emits one row per step (or one for the episode). */
export function episodeRows(task: AppworldTask, actions: readonly string[], prompts?: PromptSet, layout: WorldModelLayout = 'transition'): CorpusRow[] {
  const { session, runner } = startEpisode(task);
  const records = taskRecords(task);
  const history: ChatMessage[] = [
    { role: 'system', content: agentSystemPromptWith(prompts) },
    { role: 'user', content: taskPrompt(task) },
  ];
  const rows: CorpusRow[] = [];
  let last: { system: string; history: ChatMessage[]; action: string; observation: string } | undefined;
  try {
    actions.forEach((action, step) => {
      const call = parseToolCall(action);
      if (!call) return;
      const observation = wrapToolResponse(runPaperCall(runner, call).text);
      const system = actionWmPrompt(task, call, records);
      last = { system, history: history.slice(), action: wmActionText(call, step + 1), observation };
      if (layout === 'transition')
        rows.push({
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: `State: ${pyJsonDumps(history)}\n\nAction: ${last.action}` },
            { role: 'assistant', content: observation },
          ],
        });
      history.push({ role: 'assistant', content: action }, { role: 'user', content: observation });
    });
  } finally {
    session.close();
  }
  if (layout === 'episode' && last) rows.push({ messages: worldModelRowMessages(last, last.observation, { layout }) });
  return rows;
}

/**
 * Rows for `diffworld env corpus appworld`: `episodes` episodes cycling through the split's tasks;
 * the first pass plays the expert, later passes perturbed copies (pass + seed × tasks picks the copy).
 */
export function corpusRows(req: CorpusRequest): Generator<CorpusRow> {
  return taskCorpusRows(tasksOf(req.split), req.episodes, req.seed, req.prompts, req.layout);
}

/** corpusRows over a given task list (the split's, or a chosen few). */
export function* taskCorpusRows(tasks: readonly AppworldTask[], episodes: number, seed: number, prompts?: PromptSet, layout: WorldModelLayout = 'transition'): Generator<CorpusRow> {
  for (const [task, pass] of roundRobin(tasks, episodes)) yield* episodeRows(task, episodeActions(task, pass === 0 ? 0 : pass + seed * tasks.length), prompts, layout);
}
