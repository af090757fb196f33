// The agent side of the paper's SciWorld harness: system prompt (one plain action per turn, focus as
// submission, teleport exploration), the first user message, and observation framing (raw text).
import { ROOMS } from '../world/layout.js';

export const AGENT_SYSTEM_PROMPT = [
  'You are an agent in ScienceWorld, a text-based science laboratory. Reply with exactly one action per turn, as plain text: no JSON, no markdown, no explanations, no thoughts.',
  '',
  'Actions: look around, look at OBJ, look in OBJ, inventory, task, teleport to LOC, go to LOC, open OBJ, close OBJ, pick up OBJ, put down OBJ, move OBJ to OBJ, pour OBJ into OBJ, dunk OBJ into OBJ, mix OBJ, activate OBJ, deactivate OBJ, use OBJ on OBJ, connect OBJ to OBJ, disconnect OBJ, eat OBJ, read OBJ, flush OBJ, focus on OBJ, wait, wait1.',
  '',
  '"focus on X" submits X as your answer: focusing on the wrong thing ends the task with a score of -100. Only focus on what the task names, and never focus on "agent".',
  `Rooms: ${ROOMS.join(', ')}. Explore with "teleport to ROOM" and "look around".`,
  'Name objects as the observation does ("metal pot", "red wire terminal 1"). A substance (water, orange juice) is not its container: pour or move the container. Closed containers (fridge, freezer, cupboard, oven) must be opened before you can see or use what is inside.',
  'When an action is ambiguous, answer the numbered prompt with the number of the option you meant.',
].join('\n');

/** First user turn: `Task: {desc}\n\nYou are in: {initial look-around}` (reference harness). */
export function taskUserMessage(description: string, initialObservation: string): string {
  return `Task: ${description}\n\nYou are in: ${initialObservation}`;
}

/** SciWorld observations are sent as raw user turns, unwrapped. */
export function frameObservation(observation: string): string {
  return observation;
}

/** The message sent when the policy produced no parseable action. */
export const INVALID_ACTION_MESSAGE = "Please provide a valid action. Examples: 'look around', 'teleport to kitchen', 'pick up thermometer'.";
