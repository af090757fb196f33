// The conductivity tasks: test-conductivity (the real twelve things × three places) and
// test-conductivity-of-unknown-substances (letters B–Z), each × part to power × answer-box pair.
import { sub, type RoomName, type Spawn } from '../layout.js';
import { material as materialOf } from '../materials.js';
import { kindDef } from '../kinds.js';
import type { Match, Subgoal } from '../../engine/goals.js';
import { unknownSubstanceConductive } from './task-draws.js';
import { wiringGoals } from './power.js';
import { ANSWER_BOX_COLORS, addBoxes } from './spawns.js';
import { decodeLastFastest, target, type Builder } from './variation.js';

/** The conductivity tasks' seven: the wiring goals with wires joining the thing and a source, the thing and a bulb, a source and a bulb. */
function conductivityWiringGoals(subject: Match): Subgoal[] {
  const source: Match = { role: 'source' };
  const bulb: Match = { kind: 'light bulb' };
  return wiringGoals(subject, [
    [subject, source],
    [subject, bulb],
    [source, bulb],
  ]);
}

/**
 * test-conductivity's twelve things (the real task's names), each in three places (workshop,
 * kitchen, living room); the grid sorts them by name (stable). Every tested thing can be wired.
 */
const CONDUCTIVITY_THINGS: Array<{ name: string; spawn?: () => Spawn }> = [
  { name: 'sodium chloride', spawn: () => sub('sodium chloride', { connectable: true, tags: target }) },
  { name: 'water' },
  { name: 'plastic fork', spawn: () => ({ kind: 'kitchen item', name: 'plastic fork', shown: 'A plastic fork', material: 'plastic', connectable: true, tags: target }) },
  { name: 'metal fork', spawn: () => ({ kind: 'kitchen item', name: 'metal fork', shown: 'A metal fork', material: 'steel', connectable: true, tags: target }) },
  { name: 'apricot', spawn: () => ({ kind: 'food', name: 'apricot', shown: 'orange apricot', connectable: true, tags: target }) },
  { name: 'shovel', spawn: () => ({ kind: 'shovel', connectable: true, tags: target }) },
  { name: 'glass jar', spawn: () => ({ kind: 'glass jar', connectable: true, tags: target }) },
  { name: 'metal pot', spawn: () => ({ kind: 'metal pot', connectable: true, tags: target }) },
  {
    name: 'book (The Foundations of the Origin of Species)',
    spawn: () => ({
      kind: 'book',
      name: 'book (The Foundations of the Origin of Species)',
      shown: 'A book (The Foundations of the Origin of Species) titled The Foundations of the Origin of Species by Charles Darwin',
      text: 'The Foundations of the Origin of Species by Charles Darwin',
      connectable: true,
      tags: target,
    }),
  },
  { name: 'paper clip', spawn: () => ({ kind: 'kitchen item', name: 'paper clip', shown: 'A paper clip', material: 'steel', connectable: true, tags: target }) },
  { name: 'wood block', spawn: () => ({ kind: 'conductor item', name: 'wood block', material: 'wood', tags: target }) },
  { name: 'aluminum foil', spawn: () => ({ kind: 'kitchen item', name: 'aluminum foil', shown: 'A aluminum foil', material: 'aluminum', connectable: true, tags: target }) },
];
const CONDUCTIVITY_PLACES: RoomName[] = ['workshop', 'kitchen', 'living room'];
const CONDUCTIVITY_GRID = CONDUCTIVITY_PLACES.flatMap((room) => CONDUCTIVITY_THINGS.map((t) => ({ ...t, room })))
  .map((t, order) => ({ ...t, order }))
  .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.order - b.order));
/** The parts the real task adds to the workshop (a bulb only when the house has none of that colour). */
const CONDUCTIVITY_PARTS = ['red light bulb', 'green light bulb', 'blue light bulb', 'electric motor', 'electric buzzer'];

/** The real grid: thing (sorted) × part × box pair, the last fastest. */
export const testConductivity: Builder = (v, contents) => {
  const [ti, pi, k] = decodeLastFastest(v, [CONDUCTIVITY_GRID.length, CONDUCTIVITY_PARTS.length, ANSWER_BOX_COLORS.length - 1]);
  const thing = CONDUCTIVITY_GRID[ti!]!;
  if (thing.spawn) contents[thing.room].push(thing.spawn());
  const part = CONDUCTIVITY_PARTS[pi!]!;
  const bench = contents.workshop.find((s) => s.tags?.includes('workbench'));
  const has = (name: string) => [...contents.workshop, ...(bench?.contents ?? [])].some((s) => (s.name ?? s.kind) === name);
  if (!has(part)) contents.workshop.push(part.endsWith('light bulb') ? { kind: 'light bulb', name: part } : { kind: part as 'electric motor' });
  const [boxA, boxB] = addBoxes(contents, 'workshop', [ANSWER_BOX_COLORS[k!]!, ANSWER_BOX_COLORS[k! + 1]!]);
  const n = thing.name;
  const subject: Match = thing.spawn ? { tag: 'target' } : { name: n };
  const conductive = thing.spawn ? materialOf(materialOfSpawn(thing.spawn())).conductive : materialOf('water').conductive;
  return {
    description: `Your task is to determine if ${n} is electrically conductive. The ${n} is located around the ${thing.room}. First, focus on the ${n}. If it is electrically conductive, place it in the ${boxA}. If it is electrically nonconductive, place it in the ${boxB}. `,
    goals: {
      ordered: [
        { type: 'focus', match: subject, failIfWrong: true },
        { type: 'inside', match: subject, container: { tag: conductive ? 'boxA' : 'boxB' }, failContainer: { tag: conductive ? 'boxB' : 'boxA' } },
      ],
      optional: conductivityWiringGoals(subject),
    },
    plan: { kind: 'conductivity', conductive: boxA, nonconductive: boxB, subject: n, answer: conductive },
  };
};

/** The material a spawned thing is made of (its own, else its kind's). */
function materialOfSpawn(s: Spawn): string {
  return s.material ?? kindDef(s.kind).material ?? 'plastic';
}

/** test-conductivity-of-unknown-substances' letters (no A, no I), in the real (sorted) order. */
const CONDUCTIVITY_LETTERS = 'BCDEFGHJKLMNOPQRSTUVWXYZ'.split('');

/**
 * test-conductivity-of-unknown-substances on the real grid: letter × part to power × box pair, the
 * last fastest; "unknown substance X" (shown bare) in the workshop, conductive or not by the real
 * task's coin for that letter (unknownSubstanceConductive).
 */
export const testConductivityUnknown: Builder = (v, contents) => {
  const [li, pi, k] = decodeLastFastest(v, [CONDUCTIVITY_LETTERS.length, CONDUCTIVITY_PARTS.length, ANSWER_BOX_COLORS.length - 1]);
  const letter = CONDUCTIVITY_LETTERS[li!]!;
  const name = `unknown substance ${letter}`;
  const conductive = unknownSubstanceConductive(v, li!);
  contents.workshop.push({ kind: 'kitchen item', name, shown: name, material: conductive ? 'steel' : 'plastic', connectable: true, tags: target });
  const part = CONDUCTIVITY_PARTS[pi!]!;
  const bench = contents.workshop.find((s) => s.tags?.includes('workbench'));
  const has = (n: string) => [...contents.workshop, ...(bench?.contents ?? [])].some((s) => (s.name ?? s.kind) === n);
  if (!has(part)) contents.workshop.push(part.endsWith('light bulb') ? { kind: 'light bulb', name: part } : { kind: part as 'electric motor' });
  const [boxA, boxB] = addBoxes(contents, 'workshop', [ANSWER_BOX_COLORS[k!]!, ANSWER_BOX_COLORS[k! + 1]!]);
  return {
    description: `Your task is to determine if ${name} is electrically conductive. The ${name} is located around the workshop. First, focus on the ${name}. If it is electrically conductive, place it in the ${boxA}. If it is electrically nonconductive, place it in the ${boxB}. `,
    goals: {
      ordered: [
        { type: 'focus', match: { tag: 'target' }, failIfWrong: true },
        { type: 'inside', match: { tag: 'target' }, container: { tag: conductive ? 'boxA' : 'boxB' }, failContainer: { tag: conductive ? 'boxB' : 'boxA' } },
      ],
      optional: conductivityWiringGoals({ tag: 'target' }),
    },
    plan: { kind: 'conductivity', conductive: boxA, nonconductive: boxB, subject: name, answer: conductive },
  };
};
