// The identify-life-stages tasks: 1 (an animal ageing outside among distractors) and 2 (a fruit tree
// at every life stage in numbered self-watering pots, beside a distractor animal at every stage).
import { sub, type Spawn } from '../layout.js';
import type { Subgoal } from '../../engine/goals.js';
import { JavaRandom, scalaShuffle } from '../../engine/java-random.js';
import { lifeStages } from '../animals.js';
import { lifeStagePotNumbers } from './task-draws.js';
import { TASK_ANIMALS, animal } from './spawns.js';
import type { Builder } from './variation.js';

/** The life-stage tasks' five: moved away (unless already outside), outside, stayed outside 10, 20, 30 evaluations. */
function lifeStageOptionalGoals(unless: string | undefined): Subgoal[] {
  return [
    unless === undefined ? { type: 'movedAway' } : { type: 'movedAway', unless },
    { type: 'inRoom', room: 'outside' },
    ...[10, 20, 30].map((min): Subgoal => ({ type: 'stayIn', room: 'outside', min })),
  ];
}

/** identify-life-stages-1's order of variations: the real task's animal list (TASK_ANIMALS indices) shuffled by scala.util.Random(1). */
const LIFE_STAGE_ANIMALS = scalaShuffle(
  new JavaRandom(1),
  TASK_ANIMALS.map((_, i) => i),
);

/**
 * The distractor animals the life-stage tasks add outside: task animal `k`'s own shuffle of the
 * animal list (scala.util.Random(k)), its first `n`.
 */
const distractorAnimals = (k: number, n: number): string[] => scalaShuffle(new JavaRandom(k), TASK_ANIMALS).slice(0, n);

/**
 * identify-life-stages-1 as the real task builds it: outside, one newly made animal of the
 * variation's kind (it ages, world/animals.ts) and five distractor animals (distractorAnimals; one
 * of the same name as the task's animal is not added, as the real task object finds it there);
 * focus on the animal at each of its life stages but the last (dead), earliest first, a focus on
 * anything else failing.
 */
export const lifeStagesAnimal: Builder = (v, contents) => {
  const k = LIFE_STAGE_ANIMALS[v]!;
  const species = TASK_ANIMALS[k]!;
  const stages = lifeStages(species).length - 1;
  contents.outside.push(animal(species));
  for (const d of distractorAnimals(k, 5)) if (d !== species) contents.outside.push(animal(d));
  return {
    description: `Your task is to focus on the ${stages} life stages of the ${species}, starting from earliest to latest.`,
    goals: {
      ordered: Array.from({ length: stages }, (_, stage) => ({ type: 'focus' as const, match: { species, stage }, failIfWrong: true })),
      optional: lifeStageOptionalGoals('outside'),
    },
    plan: { kind: 'aging', species, stages },
  };
};

/** identify-life-stages-2's fruit trees, in the real task's order (variation = index). */
const LIFE_STAGE_TREES = ['apple', 'apricot', 'avocado', 'banana', 'cherry', 'grapefruit', 'lemon', 'orange', 'peach', 'pear'];
/** The seed of each tree's distractor shuffle, as the real task passes them (6 for four of the trees). */
const LIFE_STAGE_TREE_DISTRACTOR_SEEDS = [0, 6, 1, 2, 3, 6, 4, 5, 6, 6];

/**
 * identify-life-stages-2 as the real task builds it: outside, one tree of the variation's kind at
 * each life stage (seed, seedling, adult, reproducing, dead), each in a "self watering flower pot N"
 * with soil, N drawn by the real shuffle (lifeStagePotNumbers), and one distractor animal at every
 * stage of its life (the tree's distractor shuffle, first animal); focus on the first four trees in
 * order, any other focus failing.
 */
export const lifeStagesPlant: Builder = (v, contents) => {
  const species = LIFE_STAGE_TREES[v]!;
  const numbers = lifeStagePotNumbers(v);
  const stages = [0, 1, 2, 3, 4];
  contents.outside.push(
    ...stages.map(
      (stage, i): Spawn => ({
        kind: 'self watering flower pot',
        name: `self watering flower pot ${numbers[i]}`,
        contents: [sub('soil'), { kind: 'plant', species, stage, tags: [`stage-${stage}`] }],
      }),
    ),
  );
  const distractor = distractorAnimals(LIFE_STAGE_TREE_DISTRACTOR_SEEDS[v]!, 1)[0]!;
  contents.outside.push(...lifeStages(distractor).map((_, stage) => animal(distractor, stage)));
  const tags = stages.slice(0, 4).map((s) => `stage-${s}`);
  return {
    description: `Your task is to focus on the life stages of the ${species} plant, starting from earliest to latest. The plants are located outside.`,
    goals: {
      ordered: tags.map((tag) => ({ type: 'focus' as const, match: { tag }, failIfWrong: true })),
      // (The real task's "unless" names the plant, not a room, so it never applies.)
      optional: lifeStageOptionalGoals(undefined),
    },
    plan: { kind: 'stages', tags },
  };
};
