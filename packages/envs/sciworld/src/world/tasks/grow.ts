// The grow tasks (grow-plant, grow-fruit): the real grid of seed kind × place × three pot cases, and
// the pot and life-stage goals they share with the genetics tasks.
import { sub, type RoomName, type Spawn } from '../layout.js';
import type { Match, Subgoal } from '../../engine/goals.js';
import { decodeLastFastest, type Builder } from './variation.js';

const GROW_LOCATIONS: RoomName[] = ['kitchen', 'bathroom', 'living room', 'bedroom', 'workshop', 'greenhouse'];

/**
 * The grow tasks' real grid: seed kind (sorted) × location, then × the three pot cases (pots with
 * soil; empty pots and a heap of soil; empty pots, soil to be dug with the shovel). A "seed jar" of
 * five seeds in the location; "flower pot 1–3" in the greenhouse.
 */
function placeSeeds(v: number, contents: Parameters<Builder>[1]): { species: string; room: RoomName } {
  const [si, potCase] = decodeLastFastest(v, [SEEDS.length * GROW_LOCATIONS.length, 3]);
  const species = SEEDS[Math.floor(si! / GROW_LOCATIONS.length)]!;
  const room = GROW_LOCATIONS[si! % GROW_LOCATIONS.length]!;
  contents[room].push({ kind: 'seed jar', contents: Array.from({ length: 5 }, (): Spawn => ({ kind: 'plant', species, stage: 0 })) });
  contents.greenhouse.push(...[1, 2, 3].map((i): Spawn => ({ kind: 'flower pot', name: `flower pot ${i}`, contents: potCase === 0 ? [sub('soil')] : [] })));
  // The real task adds three soils, but each after the first finds "soil" already there.
  if (potCase === 1) contents.greenhouse.push(sub('soil'));
  return { species, room };
}

/** Soil, then water, then a seed of the species directly in each pot (near the agent): the grow and genetics tasks' pot goals, in the real order. */
export function potGoals(species: string, pots: readonly string[]): Subgoal[] {
  const inPot = (called: string) => pots.map((name): Subgoal => ({ type: 'directlyIn', match: { called }, container: { name, nearAgent: true } }));
  return [...inPot('soil'), ...inPot('water'), ...inPot(`${species} seed`)];
}

/** At least 1…upTo plants of the species at each of the four life stages (blocks of four, stage fastest). */
export function stageCountGoals(species: string, upTo: number): Subgoal[] {
  const stages: Subgoal[] = [];
  for (let min = 1; min <= upTo; min++) for (let stage = 0; stage < 4; stage++) stages.push({ type: 'stageCount', species, stage, min });
  return stages;
}

/**
 * The grow tasks' optional goals, ScienceWorld's list in its order: near and carrying the seed jar,
 * carrying the shovel and soil, near soil, moved anywhere new, in the greenhouse (and again once
 * carrying the jar), soil, water and a seed in each of the three pots; grow-fruit adds at least 1
 * and 2 plants at each life stage, the bee hive open, near a bee once two plants reproduce, near
 * the fruit.
 */
function growOptionalGoals(species: string, fruit: boolean): Subgoal[] {
  const pots = [1, 2, 3].map((i) => `flower pot ${i}`);
  const carried = (m: Match): Subgoal => ({ type: 'directlyIn', match: m, container: { kind: 'agent' } });
  const head: Subgoal[] = [
    { type: 'sameRoom', match: { kind: 'seed jar' } },
    carried({ kind: 'seed jar' }),
    carried({ kind: 'shovel' }),
    carried({ called: 'soil' }),
    { type: 'sameRoom', match: { called: 'soil' } },
    { type: 'movedAway' },
    { type: 'inRoom', room: 'greenhouse' },
    { type: 'after', after: [1], goal: { type: 'inRoom', room: 'greenhouse' } },
    ...potGoals(species, pots),
  ];
  if (!fruit) return head;
  const stages = stageCountGoals(species, 2);
  const twoReproducing = head.length + 4 + 3;
  return [
    ...head,
    ...stages,
    { type: 'open', match: { kind: 'bee hive' } },
    { type: 'after', after: [twoReproducing], goal: { type: 'sameRoom', match: { kind: 'animal', species: 'bee' } } },
    { type: 'sameRoom', match: { called: species } },
  ];
}

export const growFruit: Builder = (v, contents) => {
  const { species, room } = placeSeeds(v, contents);
  return {
    description: `Your task is to grow a ${species}. This will require growing several plants, and them being crosspollinated to produce fruit.  Seeds can be found in the ${room}. To complete the task, focus on the grown ${species}.`,
    goals: {
      // The real task scores one step: the focus on the grown fruit (any other focus fails).
      ordered: [{ type: 'focus', match: { tag: 'fruit', name: species }, failIfWrong: true }],
      optional: growOptionalGoals(species, true),
    },
    plan: { kind: 'grow', species, seedRoom: room, fruit: true },
  };
};

const SEEDS = ['apple', 'avocado', 'banana', 'cherry', 'lemon', 'orange', 'peach'];

export const growPlant: Builder = (v, contents) => {
  const { species, room } = placeSeeds(v, contents);
  const seedMatch = { kind: 'plant', species };
  return {
    description: `Your task is to grow a ${species} plant from seed. Seeds can be found in the ${room}. First, focus on a seed. Then, make changes to the environment that grow the plant until it reaches the reproduction life stage.`,
    goals: {
      // The real sequence: the focused plant is a seed, then a seedling, an adult, a reproducing plant.
      ordered: [
        { type: 'focus', match: { ...seedMatch, name: `${species} seed` }, failIfWrong: false },
        { type: 'focusStage', stage: 1 },
        { type: 'focusStage', stage: 2 },
        { type: 'focusStage', stage: 3 },
      ],
      optional: growOptionalGoals(species, false),
    },
    plan: { kind: 'grow', species, seedRoom: room },
  };
};
