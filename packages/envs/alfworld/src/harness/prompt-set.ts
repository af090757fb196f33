// The agent and world-model system prompts with an optional prompt set (the paper's templates,
// derived by `diffworld env prompts extract` from rows the user has). Without a set, ours.
import { renderTemplate, worldModelTemplate, type PromptSet, type PromptSlots } from '@diffworld/env-core';
import { AGENT_SYSTEM_PROMPT } from './agent.js';
import { BAKED_SCENE_SLOTS, bakedSceneSlots, type BakedScene } from './scene-prompt.js';
import { initialWorldModelPrompt } from './wm-prompt.js';

/** What ALFWorld's harness fills: the agent prompt is constant; the WM prompt is the baked scene's parts. */
export const ALFWORLD_PROMPT_SLOTS: PromptSlots = { agentSystem: [], worldModel: BAKED_SCENE_SLOTS };

/** The agent's system prompt: ours, or the set's. */
export function agentSystemPrompt(prompts?: PromptSet): string {
  return prompts ? renderTemplate(prompts.agentSystem, {}, 'alfworld agentSystem') : AGENT_SYSTEM_PROMPT;
}

/** The world model's system prompt of a task: our grounded prompt, or the set's template over the baked scene. */
export function worldModelSystemPrompt(scene: BakedScene, prompts?: PromptSet): string {
  return prompts ? renderTemplate(worldModelTemplate(prompts), bakedSceneSlots(scene), 'alfworld worldModel') : initialWorldModelPrompt(scene);
}
