// World-model corpus rows from real-engine episodes: the expert's episode plus perturbed ones
// (random valid or invalid actions spliced into the expert's plan). Layout 'transition' (the
// paper's), one row per step: {messages: [system = grounded WM prompt, user = "State: <json.dumps(history)>
// \n\nAction: <json.dumps([{role, content}])>", assistant = the engine's next observation]}; json.dumps
// is Python-exact (@diffworld/dataset). Layout 'episode': one row per episode, every observation a
// target, built by the dataset's worldModelRowMessages (the world model's prompts use the same).
import { Rng, roundRobin, type ChatMessage, type CorpusRequest, type PromptSet, type TaskRef } from '@diffworld/env-core';
import { pyJsonDumps, worldModelRowMessages, type ChatRow, type PyJsonValue, type WorldModelLayout } from '@diffworld/dataset';
import { sciworldTasks } from './world/tasks/split-tasks.js';
import { loadTask } from './world/tasks/setup.js';
import { expertActions } from './engine/expert/expert.js';
import { taskUserMessage } from './harness/prompt.js';
import { agentSystemPrompt, worldModelSystemPrompt } from './harness/prompt-set.js';

export interface CorpusRow {
  /** [system, user, assistant] in the transition layout; the whole episode in the episode layout. */
  messages: ChatMessage[];
  /** Where the row came from (kept out of `messages`). */
  task_id: string;
  episode: 'expert' | 'perturbed';
}

const NOISE = ['look around', 'inventory', 'wait1', 'open door', 'pick up air', 'focus on agent', 'teleport to nowhere', 'eat the moon', 'connect battery to sky'];

/** The WM user turn: `State: {json.dumps(history)}\n\nAction: {json.dumps([{"role": "assistant", "content": action}])}`. */
export function worldModelUserTurn(history: ChatMessage[], action: string): string {
  const state = pyJsonDumps(history.map((m) => ({ role: m.role, content: m.content })) as PyJsonValue);
  return `State: ${state}\n\nAction: ${pyJsonDumps([{ role: 'assistant', content: action }])}`;
}

function perturb(actions: string[], rng: Rng, validAt: (i: number) => string[]): (i: number) => string | undefined {
  // Decide up front where to splice (about one in four steps), then pick the action when we get there.
  const splice = new Set(actions.map((_, i) => i).filter(() => rng.bool(0.25)));
  return (i) => {
    if (!splice.has(i)) return undefined;
    const valid = validAt(i);
    return rng.bool(0.7) && valid.length ? rng.pick(valid) : rng.pick(NOISE);
  };
}

/** Plays one episode (expert, or perturbed with `rng`) and returns its rows (one per step, or one for the episode). */
export function episodeRows(task: TaskRef, system: string, rng?: Rng, prompts?: PromptSet, layout: WorldModelLayout = 'transition'): CorpusRow[] {
  const plan = expertActions(task.taskType, task.seed).actions;
  const { game, build } = loadTask(task.taskType, task.seed, 'easy');
  const history: ChatMessage[] = [
    { role: 'system', content: agentSystemPrompt(prompts) },
    { role: 'user', content: taskUserMessage(build.description, game.look()) },
  ];
  const rows: CorpusRow[] = [];
  const extra = rng ? perturb(plan, rng, () => game.validActions()) : () => undefined;
  let last: { history: ChatMessage[]; action: string; observation: string } | undefined;
  const play = (action: string) => {
    const r = game.step(action);
    last = { history: history.slice(), action, observation: r.observation };
    if (layout === 'transition')
      rows.push({
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: worldModelUserTurn(history, action) },
          { role: 'assistant', content: r.observation },
        ],
        task_id: task.id,
        episode: rng ? 'perturbed' : 'expert',
      });
    history.push({ role: 'assistant', content: action }, { role: 'user', content: r.observation });
  };
  for (let i = 0; i < plan.length && !game.done; i++) {
    const noise = extra(i);
    if (noise !== undefined) play(noise);
    if (!game.done) play(plan[i]!);
  }
  // The episode row is the last step's request (the whole history before it) and its observation.
  if (layout === 'episode' && last)
    rows.push({ messages: worldModelRowMessages({ system, history: last.history, action: last.action }, last.observation, { layout }), task_id: task.id, episode: rng ? 'perturbed' : 'expert' });
  return rows;
}

/**
 * Rows for `diffworld env corpus sciworld`: `episodes` episodes cycling through the split's tasks;
 * the first pass plays the expert, later passes perturbed copies (seeded by `seed`, task and pass).
 */
export function corpusRows(req: CorpusRequest): Generator<ChatRow> {
  return taskCorpusRows(sciworldTasks(req.split), req.episodes, req.seed, req.prompts, req.layout);
}

/** corpusRows over a given task list (the split's, or a chosen few). */
export function* taskCorpusRows(tasks: readonly TaskRef[], episodes: number, seed: number, prompts?: PromptSet, layout: WorldModelLayout = 'transition'): Generator<ChatRow> {
  for (const [task, pass] of roundRobin(tasks, episodes)) {
    const rows = episodeRows(task, worldModelSystemPrompt(task, prompts), pass === 0 ? undefined : new Rng(seed).fork(`${task.id}:${pass}`), prompts, layout);
    for (const row of rows) yield { messages: row.messages, dataset: 'sciworld', meta: { task_id: row.task_id, episode: row.episode } };
  }
}
