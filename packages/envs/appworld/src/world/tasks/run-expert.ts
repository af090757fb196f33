// Runs experts and replays action lists in fresh episodes of the real engine.
import { parseToolCall } from '../../harness/parser.js';
import { startEpisode } from './catalog.js';
import { evaluateTask, type EvalReport } from './evaluate.js';
import { ExpertContext } from './expert.js';
import type { AppworldTask } from './types.js';

/** The expert's actions for a task and the evaluation of the episode they produce. */
export function runExpert(task: AppworldTask): { actions: string[]; report: EvalReport } {
  const { session, runner } = startEpisode(task);
  try {
    const x = new ExpertContext(runner, task.supervisor);
    task.variant.solve(x);
    return { actions: x.actions, report: evaluateTask(task, session) };
  } finally {
    session.close();
  }
}

/** Replays agent completions (unparseable ones are skipped, as the harness does) and evaluates. */
export function replayActions(task: AppworldTask, completions: readonly string[]): EvalReport {
  const { session, runner } = startEpisode(task);
  try {
    for (const c of completions) {
      const call = parseToolCall(c);
      if (!call) continue;
      const r = runner.run(call);
      if (r.ok && call.name === 'supervisor__complete_task') break;
    }
    return evaluateTask(task, session);
  } finally {
    session.close();
  }
}
