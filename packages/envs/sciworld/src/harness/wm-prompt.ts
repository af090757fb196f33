// World-model system prompts. `worldModelPrompt` is the grounding section layout the corpus rows
// carry (ENVIRONMENT STATE / TASK CONTEXT / DOMAIN RULES / STEERING DIRECTIVES / PREDICTION TARGET),
// grounded in the task's initial state (every room's look-around, flattened as the reference does).
// `actionWorldModelPrompt` is the reference's per-call prompt (current room, inventory, active action).
import type { ChatMessage, TaskRef } from '@diffworld/env-core';
import { adjacency, ROOMS } from '../world/layout.js';
import type { Game } from '../engine/game.js';
import { loadTask } from '../world/tasks/setup.js';

export interface TaskSnapshot {
  description: string;
  taskType: string;
  startRoom: string;
  initialObservation: string;
  /** room → flattened look-around text ("the agent" removed), as the scene walk sees it (walkRooms). */
  roomMap: Record<string, string>;
}

/** The order in which the paper's scene walk visits the rooms (its rows' room map). */
export const WALK_ROOMS = ['hallway', 'kitchen', 'workshop', 'greenhouse', 'bedroom', 'living room', 'art studio', 'foundry', 'bathroom', 'outside'] as const;

/**
 * The paper's scene walk: one episode teleports to each room in turn (a tick each) and looks around
 * (free, as in ScienceWorld); `visit` sees each room with the game standing in it. The recordings'
 * room maps show the ticks: identify-life-stages-2's trees are a stage on in the last room (outside,
 * ten ticks in) though stage one at a real transcript's first look, the bathroom's toilet drain has
 * closed, and the find tasks' adult trees (greenhouse, four ticks in) have not yet flowered.
 */
export function walkRooms(game: Game, visit: (room: string, game: Game) => void, rooms: readonly string[] = WALK_ROOMS): void {
  for (const room of rooms) {
    game.step(`teleport to ${room}`);
    visit(room, game);
  }
}

/** A look-around as the paper's room maps hold it: whitespace runs → one space, "the agent" dropped. */
export const flattenLookAround = (look: string) =>
  look
    .replace(/\n\tthe agent/g, '')
    .replace(/[\t\n]+/g, ' ')
    .replace(/ +/g, ' ')
    .trim();

export function taskSnapshot(task: TaskRef): TaskSnapshot {
  const { game, build } = loadTask(task.taskType, task.seed, 'easy');
  const w = game.w;
  const startRoom = w.name(w.get(w.agentRoom()));
  const initialObservation = game.look();
  const roomMap: Record<string, string> = {};
  walkRooms(game, (room) => {
    roomMap[room] = flattenLookAround(game.look());
  });
  return { description: build.description, taskType: task.taskType, startRoom, initialObservation, roomMap };
}

function connections(): string {
  const adj = adjacency();
  return ROOMS.map((r) => `${r} <-> ${adj[r].join(', ')}`).join('\n');
}

const DOMAIN_RULES = [
  '- teleport to LOC always succeeds: "You teleport to the LOC."',
  '- go to LOC works only for a room adjacent to the current one ("You move to the LOC."); otherwise "No known action matches that input." or "It\'s not clear how to get there from here."',
  '- look around prints "This room is called the ROOM. In it, you see: " then one tab-indented line per object, then "You also see:" and the doors ("A door to the ROOM (that is open)").',
  '- pick up OBJ: "You move the OBJ to the inventory." Liquids cannot be picked up; picked-up objects leave the room.',
  '- focus on OBJ: "You focus on the OBJ." Focusing on a wrong object fails the task.',
  '- activate/deactivate OBJ: "The OBJ is now activated." / "The OBJ is now deactivated." / "The OBJ is not something that can be activated."',
  '- move OBJ to OBJ2: "You move the OBJ to the OBJ2." Into a closed container: "That can\'t be moved there, because the OBJ2 isn\'t open."',
  '- open/close OBJ: "The OBJ is now open." / "The OBJ is already open." / "The OBJ is now closed."',
  '- inventory: "In your inventory, you see:" then one tab-indented line per item.',
  '- wait: "You decide to wait for 10 iterations."; wait1: "You decide to wait for 1 iterations."; use thermometer on OBJ: "the thermometer measures a temperature of N degrees celsius".',
  '- Any input that matches no action: "No known action matches that input."',
];

const STEERING = [
  'GROUNDING RULE: describe only objects present in the environment state above; never invent objects, rooms or quantities.',
  '- Output only the observation text, with no prefix, quotes, JSON or explanation.',
  '- Keep the exact wording and tab/newline layout of the response templates.',
  '- Objects moved by earlier actions are where those actions put them.',
  '- Temperatures change gradually with heat sources (stove, oven, blast furnace) and coolers (fridge, freezer).',
  '- If uncertain, output "No known action matches that input."',
];

export function worldModelPrompt(task: TaskRef): string {
  const s = taskSnapshot(task);
  return [
    '## ENVIRONMENT STATE',
    'ScienceWorld text-based interactive environment: 10 interconnected rooms (kitchen, bathroom, workshop, art studio, greenhouse, hallway, bedroom, living room, outside, foundry) with containers, appliances, substances, electrical parts and living things.',
    `The agent starts in: ${s.startRoom}.`,
    "Agent's inventory: an orange.",
    'Room map at the start of the task:',
    ...ROOMS.map((r) => `[${r}]\n${s.roomMap[r]}\n`),
    'Room adjacency:',
    connections(),
    '## TASK CONTEXT',
    `Task: ${s.description}`,
    `Task type: ${s.taskType}`,
    "Predict the observation the environment returns for the agent's next action, given the conversation so far (user turn: State = the conversation, Action = the action).",
    '## DOMAIN RULES',
    ...DOMAIN_RULES,
    '## STEERING DIRECTIVES',
    ...STEERING,
    "PREDICTION TARGET: The ScienceWorld observation text produced by the agent's action given the current environment state.",
  ].join('\n');
}

/** The room the agent is in, from the last observation that says so (reference rule). */
export function currentRoom(history: ChatMessage[], fallback: string): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== 'user') continue;
    const moved = /You (?:move|teleport) to the ([a-z ]+?)\./.exec(m.content);
    if (moved) return moved[1]!;
    const look = /is called the ([a-z ]+?)\./.exec(m.content);
    if (look) return look[1]!;
  }
  return fallback;
}

export function actionWorldModelPrompt(snapshot: TaskSnapshot, history: ChatMessage[], action: string, inventory: string[]): string {
  const room = currentRoom(history, snapshot.startRoom);
  return [
    '## ENVIRONMENT STATE',
    'ScienceWorld text-based interactive environment with 10 interconnected rooms.',
    `The agent is currently in: ${room}.`,
    `Task: ${snapshot.description}`,
    `Visible objects in ${room}:`,
    snapshot.roomMap[room] ?? '(unknown room)',
    `Agent's inventory: ${inventory.length ? inventory.join(', ') : 'empty'}`,
    'Room adjacency:',
    connections(),
    '## TASK CONTEXT',
    `Predict the observation for the agent's action. The active action is: ${action}`,
    '## DOMAIN RULES',
    ...DOMAIN_RULES,
    '## STEERING DIRECTIVES',
    ...STEERING,
    `PREDICTION TARGET: The ScienceWorld observation text produced by the action '${action}' given the current environment state.`,
  ].join('\n');
}
