// The agent and world-model system prompts with an optional prompt set (the paper's templates,
// derived by `diffworld env prompts extract` from rows the user has). Without a set, ours.
import { renderTemplate, worldModelTemplate, type PromptSet, type PromptSlots, type TaskRef } from '@diffworld/env-core';
import { taskInfo } from '../world/tasks/catalog.js';
import { helpActions } from '../world/grammar.js';
import { AGENT_SYSTEM_PROMPT } from './prompt.js';
import { taskSnapshot, WALK_ROOMS, worldModelPrompt, type TaskSnapshot } from './wm-prompt.js';

/** The parts of the paper's baked world-model prompt that vary by task. */
export const SCIWORLD_WM_SLOTS = ['task', 'task_type', 'starting_state', 'room_map', 'action_templates'] as const;
export type SciworldWmSlot = (typeof SCIWORLD_WM_SLOTS)[number];

/** What ScienceWorld's harness fills: the agent prompt is constant. */
export const SCIWORLD_PROMPT_SLOTS: PromptSlots = { agentSystem: [], worldModel: SCIWORLD_WM_SLOTS };

export { WALK_ROOMS };

/** The paper lists the first 15 action templates (sorted); the `easy` preset drops electrical ones outside electrical tasks. */
export function actionTemplates(taskType: string): string[] {
  const electrical = taskInfo(taskType).electrical === true;
  return helpActions(true)
    .filter((a) => electrical || !/\bconnect\b|\bdisconnect\b/.test(a))
    .slice(0, 15);
}

/** The slot values of a task from our engine: description, type, first look-around, every room, templates. */
export function worldModelSlots(task: TaskRef, s: TaskSnapshot = taskSnapshot(task)): Record<SciworldWmSlot, string> {
  return {
    // The paper's harness strips the description (several real templates end in a space its rows lack).
    task: s.description.trim(),
    task_type: s.taskType,
    starting_state: s.initialObservation,
    room_map: WALK_ROOMS.map((r) => `[${r}]\n${s.roomMap[r] ?? ''}`).join('\n\n'),
    action_templates: actionTemplates(task.taskType).join(', '),
  };
}

/** The agent's system prompt: ours, or the set's. */
export function agentSystemPrompt(prompts?: PromptSet): string {
  return prompts ? renderTemplate(prompts.agentSystem, {}, 'sciworld agentSystem') : AGENT_SYSTEM_PROMPT;
}

/** The world model's system prompt of a task: our grounded prompt, or the set's template over our engine's values. */
export function worldModelSystemPrompt(task: TaskRef, prompts?: PromptSet): string {
  return prompts ? renderTemplate(worldModelTemplate(prompts), worldModelSlots(task), 'sciworld worldModel') : worldModelPrompt(task);
}
