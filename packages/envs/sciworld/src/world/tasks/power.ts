// The power-component tasks (plain and renewable-vs-nonrenewable): the real grid of part to power ×
// renewable × nonrenewable source, and ScienceWorld's wiring goals (shared with the conductivity tasks).
import type { Spawn } from '../layout.js';
import type { Match, Subgoal } from '../../engine/goals.js';
import { decodeLastFastest, target, type Builder, type Contents } from './variation.js';

/** The real task's parts to power, in its order (grid: part × renewable source × nonrenewable source, the last fastest). */
const POWER_PARTS = ['red light bulb', 'green light bulb', 'blue light bulb', 'electric motor', 'electric buzzer'];

const SOURCES = { renewable: ['solar panel', 'wind generator'], nonrenewable: ['gas generator', 'nuclear generator'] } as const;

/**
 * The power tasks' workshop as the real task builds it (both tasks alike): every part to power that
 * the house lacks (bulbs of other colours, the motor, the buzzer) on the floor, the variation's
 * renewable and nonrenewable generator beside them, the battery on the table; tags the part to power.
 */
function powerWorld(contents: Contents, part: string, k: number, m: number): void {
  const bench = contents.workshop.find((s) => s.tags?.includes('workbench'))!;
  for (const p of POWER_PARTS) {
    const existing = bench.contents!.find((s) => (s.name ?? s.kind) === p);
    const spawn: Spawn = existing ?? (p.endsWith('light bulb') ? { kind: 'light bulb', name: p } : { kind: p as 'electric motor' });
    if (p === part) spawn.tags = target;
    if (!existing) contents.workshop.push(spawn);
  }
  contents.workshop.push({ kind: SOURCES.renewable[k]! as 'solar panel' }, { kind: SOURCES.nonrenewable[m]! as 'solar panel' });
}

/**
 * ScienceWorld's wiring goals for the electrical tasks, in its order: moved anywhere new, near the
 * task object, its first and its second terminal on a wire, then one wire joining each given pair.
 */
export function wiringGoals(subject: Match, joined: Array<[Match, Match]>): Subgoal[] {
  return [
    { type: 'movedAway' },
    { type: 'sameRoom', match: subject },
    { type: 'wiredTerminal', match: subject, terminal: 0 },
    { type: 'wiredTerminal', match: subject, terminal: 1 },
    ...joined.map(([a, b]): Subgoal => ({ type: 'wireBetween', a, b })),
  ];
}

export const powerComponent: Builder = (v, contents) => {
  const [pi, k, m] = decodeLastFastest(v, [POWER_PARTS.length, 2, 2]);
  const name = POWER_PARTS[pi!]!;
  powerWorld(contents, name, k!, m!);
  return {
    description: `Your task is to turn on the ${name}. First, focus on the ${name}. Then, create an electrical circuit that powers it on. `,
    goals: {
      ordered: [
        { type: 'focus', match: { tag: 'target' }, failIfWrong: true },
        { type: 'powered', match: { tag: 'target' } },
      ],
      optional: wiringGoals({ tag: 'target' }, [[{ tag: 'target' }, { role: 'source' }]]),
    },
    plan: { kind: 'power' },
  };
};

export const powerRenewable: Builder = (v, contents) => {
  const [pi, k, m] = decodeLastFastest(v, [POWER_PARTS.length, 2, 2]);
  // The recordings show the kind alternating with the last axis (variations 0, 18: renewable; 9, 17: nonrenewable).
  const kind = m === 0 ? 'renewable' : 'nonrenewable';
  const right = kind === 'renewable' ? SOURCES.renewable[k!]! : SOURCES.nonrenewable[m!]!;
  const name = POWER_PARTS[pi!]!;
  powerWorld(contents, name, k!, m!);
  return {
    description: `Your task is to turn on the ${name} by powering it using a ${kind} power source. First, focus on the ${name}. Then, create an electrical circuit that powers it on. `,
    goals: {
      // ScienceWorld's three: the focus, the part on, and it powered by the variation's source (any other fails).
      ordered: [
        { type: 'focus', match: { tag: 'target' }, failIfWrong: true },
        { type: 'powered', match: { tag: 'target' } },
        { type: 'poweredFrom', source: { kind: right }, failIfWrong: true },
      ],
      optional: wiringGoals({ tag: 'target' }, [[{ tag: 'target' }, { kind: right }]]),
    },
    plan: { kind: 'power', source: right },
  };
};
