// Expert episodes as env-core episode records (for `diffworld env expert sciworld --split …`): the
// conversation the agent would have seen (agent system prompt, task turn, actions, raw observations).
import { episodeRecord, type ChatMessage, type EpisodeRecord, type TaskRef } from '@diffworld/env-core';
import { expertActions } from './engine/expert/expert.js';
import { loadTask, type SimplificationPreset } from './world/tasks/setup.js';
import { AGENT_SYSTEM_PROMPT, frameObservation, taskUserMessage } from './harness/prompt.js';

export function playActions(task: TaskRef, actions: string[], preset: SimplificationPreset = 'easy'): EpisodeRecord {
  const { game, build } = loadTask(task.taskType, task.seed, preset);
  const messages: ChatMessage[] = [
    { role: 'system', content: AGENT_SYSTEM_PROMPT },
    { role: 'user', content: taskUserMessage(build.description, game.look()) },
  ];
  const played: string[] = [];
  let reward = 0;
  for (const a of actions) {
    if (game.done) break;
    const r = game.step(a);
    played.push(a);
    reward += r.reward;
    messages.push({ role: 'assistant', content: a }, { role: 'user', content: frameObservation(r.observation) });
  }
  return episodeRecord(task, { messages, actions: played, reward, score: game.score(), won: game.goals.completed() });
}

/** The expert's episode on `task`, as one record (task_type = the task name). */
export function expertEpisode(task: TaskRef, preset: SimplificationPreset = 'easy'): EpisodeRecord {
  return playActions(task, expertActions(task.taskType, task.seed, preset).actions, preset);
}
