// Random draws the real engine makes while constructing its task catalogue. ScienceWorld seeds its
// generator with the variation index and then constructs every task (in registration order:
// change-the-state-of-matter-of, melt, boil, freeze first); each change-of-state task picks a random
// container for eight of its substances as it is constructed, so those picks depend on the task
// and the variation — but not on anything the task later does.
import { JavaRandom, scalaShuffle } from '../../engine/java-random.js';
import type { Genes, GeneTrait } from '../layout.js';

/** ContainerMaker.mkRandomLiquidCup's options, indexed by nextInt(7). */
export const LIQUID_CUPS = ['metal pot', 'glass cup', 'plastic cup', 'tin cup', 'paper cup', 'ceramic cup', 'jug'] as const;
export type LiquidCup = (typeof LIQUID_CUPS)[number];

/** The substances of a change-of-state task that come in a random cup, in the order they draw. */
export const CUPPED_SUBSTANCES = ['orange juice', 'apple juice', 'ice cream', 'lead', 'tin', 'mercury', 'gallium', 'caesium'] as const;

const CHANGE_OF_STATE_ORDER = ['change', 'melt', 'boil', 'freeze'] as const;
export type ChangeOfStateMode = (typeof CHANGE_OF_STATE_ORDER)[number];

/** The cup each cupped substance of `mode` comes in for this variation. */
export function changeOfStateCups(variation: number, mode: ChangeOfStateMode): Record<(typeof CUPPED_SUBSTANCES)[number], LiquidCup> {
  const rng = new JavaRandom(variation);
  const skip = CHANGE_OF_STATE_ORDER.indexOf(mode) * CUPPED_SUBSTANCES.length;
  for (let i = 0; i < skip; i++) rng.nextInt(LIQUID_CUPS.length);
  const out = {} as Record<(typeof CUPPED_SUBSTANCES)[number], LiquidCup>;
  for (const s of CUPPED_SUBSTANCES) out[s] = LIQUID_CUPS[rng.nextInt(LIQUID_CUPS.length)]!;
  return out;
}

/**
 * Draws the real engine makes before it constructs the measure-melting-point-known-substance task:
 * every task registered earlier draws from the same stream while constructed. 2,720 is the smallest
 * offset at which all four cups the recordings show (known v110 metal pot, v148 ceramic cup, v339
 * jug; unknown v60 ceramic cup) come out of `JavaRandom(variation)` (a wrong offset matches all four
 * with probability 1/2,401), and the chain of derived offsets corroborates it: the genetics tasks'
 * pot shuffles end at 2,000 and use-thermometer draws 720 more.
 */
export const DRAWS_BEFORE_MELTING_POINT_TASKS = 2720;

/** The draw positions (past the fitted offset) the melting-point tasks' cups take, in construction order. */
export function cupAt(variation: number, position: number): LiquidCup {
  const rng = new JavaRandom(variation);
  for (let i = 0; i < DRAWS_BEFORE_MELTING_POINT_TASKS + position; i++) rng.next(31);
  return LIQUID_CUPS[rng.nextInt(LIQUID_CUPS.length)]!;
}

/** use-thermometer, registered just before, draws two numbers for each of its 360 objects. */
export const USE_THERMOMETER_DRAWS = 360 * 2;

/**
 * The starting temperature the use-thermometer task gives the object it constructs `order`-th
 * (TaskUseInstrumentThermometer.mkRandTemp): its temperature point ± (50 … 149), sign by a coin.
 * Positioned by the fitted offset above, so unconfirmed.
 */
export function thermometerTaskTemperature(variation: number, order: number, around: number): number {
  return around + thermometerOffset(variation, order);
}

/** The signed offset ±(50 … 149): some 2,000 draws in, so memoised (every load of the task asks for it). */
function thermometerOffset(variation: number, order: number): number {
  const key = `${variation}:${order}`;
  const known = thermometerOffsets.get(key);
  if (known !== undefined) return known;
  const rng = new JavaRandom(variation);
  for (let i = 0; i < DRAWS_BEFORE_MELTING_POINT_TASKS - USE_THERMOMETER_DRAWS + 2 * order; i++) rng.next(31);
  const delta = rng.nextInt(100) + 50;
  const offset = rng.nextBoolean() ? -delta : delta;
  thermometerOffsets.set(key, offset);
  return offset;
}
const thermometerOffsets = new Map<string, number>();

/**
 * Draws made before identify-life-stages-2 is constructed. Derived from the recordings: 700 is the
 * only offset below 20,000 at which both recorded pot numberings (apple 4, 6, 7, 9, 5 and avocado
 * 2, 7, 8, 1, 5 for seed … dead) come out (a chance fit has odds of about 1 in 2·10⁸).
 */
export const DRAWS_BEFORE_LIFE_STAGES_2 = 700;

/**
 * The pot numbers of identify-life-stages-2's variation `v` (seed, seedling, adult, reproducing,
 * dead): while constructed, the task shuffles 1–9 once per tree kind (eight draws each) and the
 * variation's tree takes its shuffle's first five.
 */
export function lifeStagePotNumbers(v: number): number[] {
  const rng = new JavaRandom(v);
  for (let i = 0; i < DRAWS_BEFORE_LIFE_STAGES_2 + 8 * v; i++) rng.next(31);
  return scalaShuffle(rng, [1, 2, 3, 4, 5, 6, 7, 8, 9]).slice(0, 5);
}

/**
 * Draws made before the genetics tasks shuffle their flower pots (five shuffles of 1–9, eight draws
 * each). Derived from the recordings: 880 (known plant) and 1,960 (unknown plant) are the only
 * offsets below 30,000 at which all four recorded pot sets of each task come out.
 */
export const DRAWS_BEFORE_MENDEL_POTS = { known: 880, unknown: 1960 } as const;

/** The six pot numbers of pot set `set` (0–4) of a genetics task in variation `v`: the set's shuffle of 1–9, first six. */
export function mendelPotNumbers(v: number, set: number, task: keyof typeof DRAWS_BEFORE_MENDEL_POTS): number[] {
  const rng = new JavaRandom(v);
  for (let i = 0; i < DRAWS_BEFORE_MENDEL_POTS[task] + 8 * set; i++) rng.next(31);
  return scalaShuffle(rng, [1, 2, 3, 4, 5, 6, 7, 8, 9]).slice(0, 6);
}

/**
 * Draws made before test-conductivity-of-unknown-substances is constructed: the change-of-state
 * tasks' 4 × 8 cups (the two electrical tasks registered in between draw nothing while constructed).
 * Read from the sources; the find tasks' recorded pot numbers (below) confirm the 32 + 24 draws.
 */
export const DRAWS_BEFORE_CONDUCTIVITY_UNKNOWN = CHANGE_OF_STATE_ORDER.length * CUPPED_SUBSTANCES.length;

/** Whether the unknown substance of letter index `letter` (B = 0 … Z = 23) conducts: the real coin, nextFloat() ≥ 0.5. */
export function unknownSubstanceConductive(v: number, letter: number): boolean {
  const rng = new JavaRandom(v);
  for (let i = 0; i < DRAWS_BEFORE_CONDUCTIVITY_UNKNOWN + letter; i++) rng.next(31);
  return rng.nextFloat() >= 0.5;
}

/**
 * The find tasks (living, non-living, plant, animal, constructed in that order after the 32 cups and
 * the 24 conductivity coins) make 16 draws per set of living things: 8 while creating the animals,
 * then the 8 of shuffling the flower-pot numbers 1–9. Derived from the recordings: all sixteen
 * recorded find greenhouses (sets 2 and 9 of every mode) number their pots exactly so, and the
 * chain continues to identify-life-stages-2's 700 (4 × 160 find draws + the paint tasks' 2 × 2).
 */
export const DRAWS_BEFORE_FIND = DRAWS_BEFORE_CONDUCTIVITY_UNKNOWN + 24;

/** The five pot numbers of a find task's set (three planted, then two empty): its shuffle of 1–9. */
export function findPotNumbers(v: number, mode: number, set: number): number[] {
  const rng = new JavaRandom(v);
  for (let i = 0; i < DRAWS_BEFORE_FIND + 160 * mode + 16 * set + 8; i++) rng.next(31);
  return scalaShuffle(rng, [1, 2, 3, 4, 5, 6, 7, 8, 9]).slice(0, 5);
}

/**
 * The find tasks' pea plant: its two parents' random traits are the set's first eight draws (height,
 * seed shape, seed colour, flower colour each); a dominant draw is nextInt(2) = 0. Shown as
 * ScienceWorld shows a grown pea plant, by its height ("with a tall height").
 */
export function findPeaHeight(v: number, mode: number, set: number, values: TraitValues): Genes {
  const rng = new JavaRandom(v);
  for (let i = 0; i < DRAWS_BEFORE_FIND + 160 * mode + 16 * set; i++) rng.next(31);
  const draws = Array.from({ length: 8 }, () => rng.nextInt(2) === 0);
  const traits = PEA_TRAIT_ORDER.map((t, i): GeneTrait => ({ trait: t, values: values[t]!, alleles: [draws[i]!, draws[4 + i]!] }));
  return { trait: 'plant height', values: ['tall', 'short'], firstDominant: true, alleles: [draws[0]!, draws[4]!], suffix: 'height', traits };
}

/** Where mendelian-genetics-known-plant starts drawing: after identify-life-stages-2's 80 draws. */
export const DRAWS_BEFORE_MENDEL_KNOWN = DRAWS_BEFORE_LIFE_STAGES_2 + 80;
const PEA_TRAIT_ORDER = ['plant height', 'seed shape', 'seed color', 'flower color'];

/** Each trait's values, dominant first. */
export type TraitValues = Readonly<Record<string, readonly [string, string]>>;

/** A seed's genotype over `order` from its two drawn parents (trait → whether each parent carries the dominant value). */
const genotype = (order: readonly string[], values: TraitValues, a: ReadonlyMap<string, boolean>, b: ReadonlyMap<string, boolean>): GeneTrait[] =>
  order.map((t) => {
    const v = values[t];
    if (!v) throw new Error(`sciworld: no values for the trait '${t}'`);
    return { trait: t, values: v, alleles: [a.get(t)!, b.get(t)!] };
  });

/**
 * The genotypes of the two seeds of the known-plant genetics task's seed jar `jar` (its genetics
 * entry: trait × dominant/recessive); a seed shows its seed shape and colour, "wrinkly green pea seed". The task first draws 4 (a trait set), then per jar 12: the dominant pair's two parents
 * and the recessive pair's, 3 random traits each (the task's trait is fixed); a dominant draw is
 * nextInt(2) = 0 and a plant shows the dominant value when either parent carries it. The 880 at which
 * the pots are shuffled is exactly 4 + 8 × 12 draws on.
 */
export function mendelKnownSeeds(v: number, jar: number, trait: string, values: TraitValues): [GeneTrait[], GeneTrait[]] {
  const rng = new JavaRandom(v);
  for (let i = 0; i < DRAWS_BEFORE_MENDEL_KNOWN + 4 + 12 * jar; i++) rng.next(31);
  const parentTraits = (fixedDominant: boolean) => new Map(PEA_TRAIT_ORDER.map((t) => [t, t === trait ? fixedDominant : rng.nextInt(2) === 0]));
  const plant = (dominant: boolean) => {
    const [a, b] = [parentTraits(dominant), parentTraits(dominant)];
    return genotype(PEA_TRAIT_ORDER, values, a, b);
  };
  return [plant(true), plant(false)];
}

/** Where mendelian-genetics-unknown-plant starts drawing: right after the known-plant task's five pot shuffles. */
export const DRAWS_BEFORE_MENDEL_UNKNOWN = DRAWS_BEFORE_MENDEL_POTS.known + 5 * 8;

/**
 * The genotypes of the two seeds of mendelian-genetics-unknown-plant's seed jar `jar` (trait ×
 * dominant/recessive) of plant `plantIdx`, its traits drawn in `drawOrder` (the order its "except"
 * maker draws them); a seed shows its seed shape and colour ("square blue unknown E seed"). While constructed, the task draws per plant 4
 * (its trait set) and 2 × 16 for two throwaway plants (every unknown plant's base class draws an
 * E-type pair of 8, its own class another 8 when given none), then per jar 28: each parent pair's
 * 2 × 3 random traits followed by the 8 of its plant's base class. 260 per plant; the four plants'
 * 1,040 draws end exactly where the pots are shuffled (1,960), and the recorded seeds of E and D
 * jars (variations 0, 109, 388, 407) all come out.
 */
export function mendelUnknownSeeds(v: number, plantIdx: number, jar: number, trait: string, drawOrder: readonly string[], values: TraitValues): [GeneTrait[], GeneTrait[]] {
  const rng = new JavaRandom(v);
  for (let i = 0; i < DRAWS_BEFORE_MENDEL_UNKNOWN + 260 * plantIdx + 36 + 28 * jar; i++) rng.next(31);
  const parentTraits = (fixedDominant: boolean) => new Map(drawOrder.map((t) => [t, t === trait ? fixedDominant : rng.nextInt(2) === 0]));
  const seed = (dominant: boolean) => {
    const [a, b] = [parentTraits(dominant), parentTraits(dominant)];
    for (let i = 0; i < 8; i++) rng.next(31);
    return genotype(drawOrder, values, a, b);
  };
  return [seed(true), seed(false)];
}

/**
 * The mixing containers the paint tasks shuffle while constructed (glass cup, wood bowl, jug; two
 * draws each, secondary then tertiary, after the find tasks' 640 draws: 696–699, which ends exactly
 * where identify-life-stages-2 starts).
 */
export function paintMixingContainers(v: number, task: 'secondary' | 'tertiary'): Array<'glass cup' | 'wood bowl' | 'jug'> {
  const rng = new JavaRandom(v);
  for (let i = 0; i < DRAWS_BEFORE_FIND + 640 + (task === 'secondary' ? 0 : 2); i++) rng.next(31);
  return scalaShuffle(rng, ['glass cup', 'wood bowl', 'jug'] as const);
}
