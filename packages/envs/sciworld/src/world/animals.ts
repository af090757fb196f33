// ScienceWorld's animals and their life cycles (facts read from its sources): each animal's name
// (what listings sort by), its life-form type (what the task names and a stage name is made from)
// and its kind of life cycle; each cycle's stages, how many ticks each lasts, and the stage names a
// cycle overrides ("caterpillar", "butterfly pupa", "frog egg" — a moth or a toad shows those too).

export interface AnimalStage {
  /** The stage's own name ("egg", "hatchling", "adult", "dead"). */
  name: string;
  /** Ticks spent in the stage before the next one; undefined for the last (dead) stage. */
  ticks?: number;
  /** What the animal is called in this stage when the cycle overrides "<stage> <type>". */
  shown?: string;
}

export type LifeCycleKind = 'mammal' | 'bird' | 'reptile' | 'insect' | 'amphibian';

export const LIFE_CYCLES: Readonly<Record<LifeCycleKind, readonly AnimalStage[]>> = {
  mammal: [{ name: 'baby', ticks: 20 }, { name: 'juvenile', ticks: 20 }, { name: 'adult', ticks: 50 }, { name: 'dead' }],
  bird: [{ name: 'egg', ticks: 20 }, { name: 'hatchling', ticks: 20 }, { name: 'juvenile', ticks: 20 }, { name: 'adult', ticks: 50 }, { name: 'dead' }],
  reptile: [{ name: 'egg', ticks: 20 }, { name: 'hatchling', ticks: 20 }, { name: 'juvenile', ticks: 20 }, { name: 'adult', ticks: 50 }, { name: 'dead' }],
  insect: [
    { name: 'egg', ticks: 20, shown: 'butterfly egg' },
    { name: 'caterpillar', ticks: 20, shown: 'caterpillar' },
    { name: 'pupa', ticks: 20, shown: 'butterfly pupa' },
    { name: 'adult', ticks: 50, shown: 'adult butterfly' },
    { name: 'death', shown: 'dead butterfly' },
  ],
  amphibian: [
    { name: 'egg', ticks: 20, shown: 'frog egg' },
    { name: 'tadpole', ticks: 20, shown: 'tadpole' },
    { name: 'adult', ticks: 50, shown: 'adult frog' },
    { name: 'death', shown: 'dead frog' },
  ],
};

export interface AnimalDef {
  /** The life-form type: task texts and "<stage> <type>" names use it. */
  lifeform: string;
  cycle: LifeCycleKind;
}

/** Every animal the tasks place, keyed by its name (the name a listing sorts it by). */
export const ANIMALS: Readonly<Record<string, AnimalDef>> = {
  butterfly: { lifeform: 'butterfly', cycle: 'insect' },
  moth: { lifeform: 'moth', cycle: 'insect' },
  frog: { lifeform: 'frog', cycle: 'amphibian' },
  'common toad': { lifeform: 'common toad', cycle: 'amphibian' },
  'giant tortoise': { lifeform: 'giant tortoise', cycle: 'reptile' },
  turtle: { lifeform: 'turtle', cycle: 'reptile' },
  crocodile: { lifeform: 'crocodile', cycle: 'reptile' },
  chameleon: { lifeform: 'chameleon', cycle: 'reptile' },
  parrot: { lifeform: 'parrot', cycle: 'bird' },
  dove: { lifeform: 'dove', cycle: 'bird' },
  'blue jay': { lifeform: 'blue jay', cycle: 'bird' },
  elephant: { lifeform: 'elephant', cycle: 'mammal' },
  'brown bear': { lifeform: 'brown bear', cycle: 'mammal' },
  beaver: { lifeform: 'beaver', cycle: 'mammal' },
  wolf: { lifeform: 'wolf', cycle: 'mammal' },
  chipmunk: { lifeform: 'chipmunk', cycle: 'mammal' },
  rabbit: { lifeform: 'rabbit', cycle: 'mammal' },
  mouse: { lifeform: 'mouse', cycle: 'mammal' },
  hedgehog: { lifeform: 'hedgehog', cycle: 'mammal' },
  dragonfly: { lifeform: 'dragonfly', cycle: 'mammal' },
  ant: { lifeform: 'ant', cycle: 'mammal' },
};

export class UnknownAnimalError extends Error {
  constructor(animal: string) {
    super(`sciworld: '${animal}' is not an animal with a life cycle (world/animals.ts)`);
    this.name = 'UnknownAnimalError';
  }
}

export function animalDef(animal: string): AnimalDef {
  const def = ANIMALS[animal];
  if (!def) throw new UnknownAnimalError(animal);
  return def;
}

/** The stages of an animal's life cycle, dead last. */
export const lifeStages = (animal: string): readonly AnimalStage[] => LIFE_CYCLES[animalDef(animal).cycle];

/** What an animal is called at a stage: the cycle's override, "<type> egg", or "<stage> <type>" ("hatchling blue jay"). */
export function animalStageName(animal: string, stage: number): string {
  const def = animalDef(animal);
  const s = LIFE_CYCLES[def.cycle][stage];
  if (!s) throw new RangeError(`sciworld: ${animal} has no life stage ${stage}`);
  if (s.shown !== undefined) return s.shown;
  return s.name === 'egg' ? `${def.lifeform} egg` : `${s.name} ${def.lifeform}`;
}
