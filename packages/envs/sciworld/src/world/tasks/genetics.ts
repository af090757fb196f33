// The Mendelian genetics tasks (known plant: the pea; unknown plant: E, B, C, D): the real grids, six
// numbered flower pots, two true-breeding parent seeds; scored by the focus on the answering box.
import { sub, type Spawn } from '../layout.js';
import type { Match, Subgoal } from '../../engine/goals.js';
import { seedName } from '../plant-traits.js';
import { mendelKnownSeeds, mendelPotNumbers, mendelUnknownSeeds, type TraitValues } from './task-draws.js';
import { potGoals, stageCountGoals } from './grow.js';
import { addBoxes } from './spawns.js';
import { decodeLastFastest, type Builder } from './variation.js';

/** ScienceWorld's pea traits (GeneticTraitPeas), dominant value first. */
export const REAL_PEA_TRAITS: TraitValues = {
  'plant height': ['tall', 'short'],
  'seed shape': ['round', 'wrinkly'],
  'seed color': ['green', 'orange'],
  'flower color': ['purple', 'white'],
};
/** The real task's trait list (seed shape twice, as it is there). */
const MENDEL_KNOWN_TRAITS = ['plant height', 'seed shape', 'seed color', 'seed shape'];
const MENDEL_BOX_COLORS = ['red', 'green', 'blue', 'orange'];

/**
 * The genetics tasks' optional goals, ScienceWorld's list in its order: near and carrying the seed
 * jar, moved anywhere new, in the greenhouse (and again once carrying the jar), soil, water and a
 * seed in each of the six pots, at least 1…6 plants at each life stage, and — once two plants
 * reproduce — the bee hive open, near a bee, near a grown seed.
 */
function geneticsOptionalGoals(species: string, pots: string[]): Subgoal[] {
  const stages = stageCountGoals(species, 6);
  const jar: Match = { kind: 'seed jar' };
  const head: Subgoal[] = [
    { type: 'sameRoom', match: jar },
    { type: 'directlyIn', match: jar, container: { kind: 'agent' } },
    { type: 'movedAway' },
    { type: 'inRoom', room: 'greenhouse' },
    { type: 'after', after: [1], goal: { type: 'inRoom', room: 'greenhouse' } },
    ...potGoals(species, pots),
  ];
  // "atLeast2Reproducing": the reproducing goal of the second block of four.
  const twoReproducing = head.length + 4 + 3;
  const after = (goal: Subgoal): Subgoal => ({ type: 'after', after: [twoReproducing], goal });
  return [
    ...head,
    ...stages,
    after({ type: 'open', match: { kind: 'bee hive' } }),
    after({ type: 'sameRoom', match: { kind: 'animal', species: 'bee' } }),
    after({ type: 'sameRoom', match: { called: species } }),
  ];
}

/**
 * mendelian-genetics-known-plant on the real grid: trait × (dominant, recessive) × flower-pot set
 * (5) × box pair (3), the last fastest. Six "flower pot N" with soil (N from the real shuffle), a
 * seed jar with a true-breeding dominant and a true-breeding recessive parent, and two boxes; the
 * real task scores only the focus on the box that answers the question.
 */
export const mendelKnown: Builder = (v, contents) => {
  const [ti, dr, pi, bi] = decodeLastFastest(v, [MENDEL_KNOWN_TRAITS.length, 2, 5, MENDEL_BOX_COLORS.length - 1]);
  const pots = mendelPotNumbers(v, pi!, 'known').map((n) => `flower pot ${n}`);
  const trait = MENDEL_KNOWN_TRAITS[ti!]!;
  const values = REAL_PEA_TRAITS[trait]!;
  const seeds = mendelKnownSeeds(v, ti! * 2 + dr!, trait, REAL_PEA_TRAITS);
  const parent = (allele: boolean, i: number): Spawn => ({
    kind: 'plant',
    species: 'pea',
    stage: 0,
    shown: seedName('pea', seeds[i]!),
    tags: [`parent-${i}`],
    genes: { trait, values, firstDominant: true, alleles: [allele, allele], traits: seeds[i]! },
  });
  contents.greenhouse.push({ kind: 'seed jar', contents: [parent(true, 0), parent(false, 1)] }, ...pots.map((name): Spawn => ({ kind: 'flower pot', name, contents: [sub('soil')] })));
  const [domBox, recBox] = addBoxes(contents, 'greenhouse', [MENDEL_BOX_COLORS[bi!]!, MENDEL_BOX_COLORS[bi! + 1]!]);
  const answer = dr === 0 ? domBox : recBox;
  return {
    description: `Your task is to determine whether ${values[dr!]} ${trait} is a dominant or recessive trait in the pea plant. If the trait is dominant, focus on the ${domBox}. If the trait is recessive, focus on the ${recBox}. `,
    goals: {
      ordered: [{ type: 'focus', match: { tag: dr === 0 ? 'boxA' : 'boxB' }, failIfWrong: true }],
      optional: geneticsOptionalGoals('pea', pots),
    },
    plan: { kind: 'genetics', answer },
  };
};

/**
 * The unknown plants of mendelian-genetics-unknown-plant in the real order, each with its four traits
 * (dominant value first) and how the task's seed draws see it (task-draws.ts).
 */
const UNKNOWN_PLANT_TRAITS: ReadonlyArray<{ plant: string; traits: ReadonlyArray<readonly [string, string, string]>; drawOrder: readonly string[] }> = [
  {
    plant: 'unknown E',
    drawOrder: ['seed color', 'leaf shape', 'flower size', 'seed shape'],
    traits: [
      ['seed color', 'blue', 'brown'],
      ['seed shape', 'round', 'square'],
      ['leaf shape', 'elliptical', 'linear'],
      ['flower size', 'small', 'large'],
    ],
  },
  {
    plant: 'unknown B',
    drawOrder: ['plant height', 'seed color', 'flower size', 'flower color'],
    traits: [
      ['plant height', 'short', 'tall'],
      ['seed color', 'green', 'yellow'],
      ['flower size', 'large', 'small'],
      ['flower color', 'orange', 'yellow'],
    ],
  },
  {
    plant: 'unknown C',
    drawOrder: ['plant height', 'leaf shape', 'flower size', 'flower color'],
    traits: [
      ['plant height', 'short', 'tall'],
      ['leaf shape', 'pointed', 'round'],
      ['flower size', 'large', 'small'],
      ['flower color', 'orange', 'yellow'],
    ],
  },
  {
    plant: 'unknown D',
    drawOrder: ['seed shape', 'leaf size', 'flower size', 'flower color'],
    traits: [
      ['seed shape', 'spherical', 'ovate'],
      ['leaf size', 'medium', 'large'],
      ['flower size', 'small', 'medium'],
      ['flower color', 'blue', 'red'],
    ],
  },
];

/**
 * mendelian-genetics-unknown-plant on the real grid: plant (4) × trait (4) × (dominant, recessive)
 * × flower-pot set (5) × box pair (3), the last fastest; scored by the focus on the answering box.
 */
export const mendelUnknown: Builder = (v, contents) => {
  const [pl, ti, dr, pi, bi] = decodeLastFastest(v, [UNKNOWN_PLANT_TRAITS.length, 4, 2, 5, MENDEL_BOX_COLORS.length - 1]);
  const pots = mendelPotNumbers(v, pi!, 'unknown').map((n) => `flower pot ${n}`);
  const { plant, traits, drawOrder } = UNKNOWN_PLANT_TRAITS[pl!]!;
  const [trait, dominant, recessive] = traits[ti!]!;
  const values = [dominant, recessive] as const;
  const seeds = mendelUnknownSeeds(v, pl!, ti! * 2 + dr!, trait, drawOrder, Object.fromEntries(traits.map(([t, d, r]) => [t, [d, r] as const])));
  const parent = (allele: boolean, i: number): Spawn => ({
    kind: 'plant',
    species: plant,
    stage: 0,
    shown: seedName(plant, seeds[i]!),
    tags: [`parent-${i}`],
    genes: { trait, values, firstDominant: true, alleles: [allele, allele], traits: seeds[i]! },
  });
  contents.greenhouse.push({ kind: 'seed jar', contents: [parent(true, 0), parent(false, 1)] }, ...pots.map((name): Spawn => ({ kind: 'flower pot', name, contents: [sub('soil')] })));
  const [domBox, recBox] = addBoxes(contents, 'greenhouse', [MENDEL_BOX_COLORS[bi!]!, MENDEL_BOX_COLORS[bi! + 1]!]);
  return {
    description: `Your task is to determine whether ${values[dr!]} ${trait} is a dominant or recessive trait in the ${plant} plant. If the trait is dominant, focus on the ${domBox}. If the trait is recessive, focus on the ${recBox}. `,
    goals: {
      ordered: [{ type: 'focus', match: { tag: dr === 0 ? 'boxA' : 'boxB' }, failIfWrong: true }],
      optional: geneticsOptionalGoals(plant, pots),
    },
    plan: { kind: 'genetics', answer: dr === 0 ? domBox : recBox },
  };
};
