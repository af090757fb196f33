// The heating goals the change-of-state and melting-point tasks share, in ScienceWorld's order.
import type { Subgoal } from '../../engine/goals.js';

export const HEATER_NAMES = ['stove', 'blast furnace', 'oven', 'hot plate'];
/** ScienceWorld's GoalObjectInContainer: the focused thing is in (or on) a container of this name, at any depth. */
export const focusedIn = (name: string): Subgoal => ({ type: 'inside', match: { focused: true }, container: { name } });

/**
 * ScienceWorld's heating goals as its tasks list them from optional index `at`: a heater on near the
 * agent (stove, blast furnace, oven, hot plate), or a fire: lighter carried, wood in the fire pit,
 * then (once the wood is in) the wood burning.
 */
export function heaterOrFireGoals(at: number): Subgoal[] {
  return [
    ...HEATER_NAMES.map((name): Subgoal => ({ type: 'activated', match: { name, nearAgent: true } })),
    { type: 'directlyIn', match: { kind: 'lighter' }, container: { kind: 'agent' } },
    { type: 'directlyIn', match: { material: 'wood' }, container: { kind: 'fire pit', nearAgent: true } },
    { type: 'after', after: [at + HEATER_NAMES.length + 1], goal: { type: 'exists', match: { material: 'wood', combusted: true, nearAgent: true } } },
  ];
}
