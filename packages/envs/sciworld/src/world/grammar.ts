// The action grammar (after ScienceWorld's ActionDefinitions.scala): each action id with its input
// synonyms; `{a}`/`{b}` are object slots. The first pattern is what `help` lists (reference order);
// `canonical` is the form used in valid-action lists and ambiguity prompts.

export type ActionId =
  | 'open'
  | 'close'
  | 'go'
  | 'teleport'
  | 'look around'
  | 'look at'
  | 'look in'
  | 'activate'
  | 'deactivate'
  | 'eat'
  | 'move'
  | 'pick up'
  | 'put down'
  | 'pour'
  | 'dunk'
  | 'focus'
  | 'reset task'
  | 'use'
  | 'read'
  | 'flush'
  | 'connect'
  | 'disconnect'
  | 'mix'
  | 'wait'
  | 'wait1'
  | 'inventory';

export interface ActionTemplate {
  id: ActionId;
  patterns: readonly string[];
  /** Canonical form shown in valid-action lists and ambiguity prompts. */
  canonical: string;
  /** Only with the teleportAction simplification. */
  teleportOnly?: boolean;
}

export const GRAMMAR: readonly ActionTemplate[] = [
  { id: 'open', patterns: ['open {a}'], canonical: 'open {a}' },
  { id: 'close', patterns: ['close {a}'], canonical: 'close {a}' },
  { id: 'teleport', patterns: ['teleport {a}', 'teleport to {a}', 'teleport into {a}'], canonical: 'teleport to {a}', teleportOnly: true },
  { id: 'go', patterns: ['go {a}', 'go through {a}', 'walk through {a}', 'move through {a}', 'go to {a}', 'walk to {a}', 'move to {a}', 'go into {a}', 'move into {a}'], canonical: 'go to {a}' },
  { id: 'look around', patterns: ['look around', 'look'], canonical: 'look around' },
  { id: 'look at', patterns: ['look at {a}', 'look on {a}', 'examine {a}'], canonical: 'look at {a}' },
  { id: 'look in', patterns: ['look in {a}'], canonical: 'look in {a}' },
  { id: 'activate', patterns: ['activate {a}', 'turn on {a}'], canonical: 'activate {a}' },
  { id: 'deactivate', patterns: ['deactivate {a}', 'turn off {a}'], canonical: 'deactivate {a}' },
  { id: 'eat', patterns: ['eat {a}', 'consume {a}'], canonical: 'eat {a}' },
  { id: 'pick up', patterns: ['pick up {a}', 'get {a}', 'take {a}'], canonical: 'pick up {a}' },
  { id: 'put down', patterns: ['put down {a}', 'drop {a}'], canonical: 'put down {a}' },
  {
    id: 'move',
    patterns: ['move {a} to {b}', 'move {a} into {b}', 'move {a} in {b}', 'move {a} on {b}', 'put {a} to {b}', 'put {a} into {b}', 'put {a} in {b}', 'put {a} on {b}'],
    canonical: 'move {a} to {b}',
  },
  { id: 'pour', patterns: ['pour {a} in {b}', 'pour {a} into {b}', 'pour {a} on {b}', 'pour {a} to {b}'], canonical: 'pour {a} into {b}' },
  { id: 'dunk', patterns: ['dunk {a} in {b}', 'dunk {a} into {b}'], canonical: 'dunk {a} into {b}' },
  { id: 'focus', patterns: ['focus on {a}', 'focus {a}'], canonical: 'focus on {a}' },
  { id: 'reset task', patterns: ['reset task'], canonical: 'reset task' },
  { id: 'use', patterns: ['use {a} on {b}', 'use {a} with {b}'], canonical: 'use {a} on {b}' },
  { id: 'read', patterns: ['read {a}'], canonical: 'read {a}' },
  { id: 'flush', patterns: ['flush {a}'], canonical: 'flush {a}' },
  { id: 'connect', patterns: ['connect {a} to {b}', 'connect {a} into {b}', 'connect {a} in {b}'], canonical: 'connect {a} to {b}' },
  { id: 'disconnect', patterns: ['disconnect {a}'], canonical: 'disconnect {a}' },
  { id: 'mix', patterns: ['mix {a}', 'stir {a}'], canonical: 'mix {a}' },
  { id: 'wait1', patterns: ['wait1'], canonical: 'wait1' },
  { id: 'wait', patterns: ['wait'], canonical: 'wait' },
  { id: 'inventory', patterns: ['inventory'], canonical: 'inventory' },
];

/** `help` output lines: the first synonym of each template, sorted (ScienceWorld's get_possible_actions). */
export function helpActions(teleport: boolean): string[] {
  const forms = GRAMMAR.filter((t) => teleport || !t.teleportOnly).map((t) => t.patterns[0]!.replace(/\{[ab]\}/g, 'OBJ'));
  return [...forms, 'task'].sort();
}

/** Ticks each action advances the world (look around and inventory are free). */
export const WAIT_TICKS = 10;

/** One ingredient as ScienceWorld's Chemistry.getSubstance finds it: by name (in `state` if given), or by material in `state`. */
export interface Ingredient {
  name: string;
  state?: 'solid' | 'liquid';
}

/** What a mix makes: a substance of `material` (ours), or a paper shown as the real ColoredPaper is. */
export type MixProduct = { kind: 'substance'; name: string; material: string } | { kind: 'paper'; name: string; shown: string };

export interface Recipe {
  inputs: readonly Ingredient[];
  product: MixProduct;
  message: string;
}

const liquid = (name: string): Ingredient => ({ name, state: 'liquid' });
const plain = (name: string): Ingredient => ({ name });
const made = (name: string, material: string): MixProduct => ({ kind: 'substance', name, material });
const paper = (colour: string): MixProduct => ({ kind: 'paper', name: `${colour} paper`, shown: `A ${colour} paper` });

/**
 * ScienceWorld's Chemistry.mixContainer, in its order of checks: with exactly two things in the
 * container the first recipe whose two ingredients are both there wins, with three the three-thing
 * recipes; the sentences are the real ones, quirks kept (every paper recipe says "blue paint", the
 * sandwiches "peanuts"). Any two, three or four different paints that no recipe takes make brown
 * paint (PAINTS, BROWN_PAINT).
 */
export const RECIPES: Readonly<Record<2 | 3, readonly Recipe[]>> = {
  2: [
    { inputs: [liquid('water'), { name: 'sodium chloride', state: 'solid' }], product: made('salt water', 'water'), message: 'Sodium chloride and water mix to produce salt water.' },
    { inputs: [liquid('water'), plain('soap')], product: made('soapy water', 'water'), message: 'Soap and water mix to produce soapy water.' },
    { inputs: [liquid('water'), plain('sugar')], product: made('sugar water', 'water'), message: 'Sugar and water mix to produce sugar water.' },
    { inputs: [liquid('water'), plain('flour')], product: made('dough', 'food mixture'), message: 'Flour and water mix to produce dough.' },
    { inputs: [plain('chocolate'), plain('marshmallow')], product: made('smores', 'food mixture'), message: 'Chocolate and marshmallow mix to produce smores.' },
    { inputs: [liquid('water'), plain('iron block')], product: made('rust', 'mixture'), message: 'Iron block and water mix to produce rust.' },
    { inputs: [plain('sodium bicarbonate'), plain('acetic acid')], product: made('sodium acetate', 'sodium acetate'), message: 'Sodium bicarbonate and acetic acid mix to produce sodium acetate.' },
    { inputs: [plain('bread'), plain('peanut')], product: made('peanut butter sandwich', 'food mixture'), message: 'Bread and peanuts mix to produce a peanut butter sandwich.' },
    { inputs: [plain('bread'), plain('jam')], product: made('jam sandwich', 'food mixture'), message: 'Bread and peanuts mix to produce a jam sandwich.' },
    { inputs: [plain('bread'), plain('banana')], product: made('banana sandwich', 'food mixture'), message: 'Bread and peanuts mix to produce a banana sandwich.' },
    ...['red', 'green', 'blue', 'orange', 'yellow', 'violet'].map((c) => ({
      inputs: [plain('paper'), liquid(`${c} paint`)],
      product: paper(c),
      message: `Paper and blue paint mix to produce ${c} paper.`,
    })),
    { inputs: [liquid('red paint'), liquid('blue paint')], product: made('violet paint', 'paint'), message: 'Red and blue paint mix to produce violet paint.' },
    { inputs: [liquid('blue paint'), liquid('yellow paint')], product: made('green paint', 'paint'), message: 'Blue and yellow paint mix to produce green paint.' },
    { inputs: [liquid('yellow paint'), liquid('red paint')], product: made('orange paint', 'paint'), message: 'Yellow and red paint mix to produce orange paint.' },
    { inputs: [liquid('yellow paint'), liquid('orange paint')], product: made('yellow-orange paint', 'paint'), message: 'Yellow and orange paint mix to produce yellow-orange paint.' },
    { inputs: [liquid('orange paint'), liquid('red paint')], product: made('red-orange paint', 'paint'), message: 'Red and orange paint mix to produce red-orange paint.' },
    { inputs: [liquid('red paint'), liquid('violet paint')], product: made('violet-red paint', 'paint'), message: 'Violet and red paint mix to produce violet-red paint.' },
    { inputs: [liquid('violet paint'), liquid('blue paint')], product: made('blue-violet paint', 'paint'), message: 'Blue and violet paint mix to produce blue-violet paint.' },
    { inputs: [liquid('blue paint'), liquid('green paint')], product: made('green-blue paint', 'paint'), message: 'Blue and green paint mix to produce blue green paint.' },
    { inputs: [liquid('green paint'), liquid('yellow paint')], product: made('yellow-green paint', 'paint'), message: 'Green and yellow paint mix to produce yellow-green paint.' },
  ],
  3: [
    { inputs: [plain('peanut'), plain('almond'), plain('cashew')], product: made('mixed nuts', 'food mixture'), message: 'Peanuts, almonds, and cashews mix to produce mixed nuts.' },
    { inputs: [plain('apple'), plain('orange'), plain('banana')], product: made('fruit salad', 'food mixture'), message: 'Apples, oranges, and bananas mix to produce fruit salad.' },
    {
      inputs: [plain('bread'), plain('peanut'), plain('jam')],
      product: made('peanut butter with jam sandwich', 'food mixture'),
      message: 'Bread and peanuts and jam mix to produce a peanut butter with jam sandwich.',
    },
    {
      inputs: [plain('bread'), plain('peanut'), plain('banana')],
      product: made('peanut butter with banana sandwich', 'food mixture'),
      message: 'Bread and peanuts and jam mix to produce a peanut butter with banana sandwich.',
    },
  ],
};

/** The paints Chemistry.mixContainer's brown-paint catch-all counts (each found at most once). */
export const PAINTS = ['red', 'blue', 'yellow', 'violet', 'green', 'orange', 'yellow-orange', 'red-orange', 'violet-red', 'blue-violet', 'green-blue', 'green-yellow', 'brown'].map(
  (c) => `${c} paint`,
);
export const BROWN_PAINT: Recipe = { inputs: [], product: made('brown paint', 'paint'), message: 'The paints mix to produce brown paint.' };

/**
 * Plant life cycle (ScienceWorld's PlantLifeStage): ticks with water and soil spent in each stage
 * before the next (seed → seedling → adult → reproducing); a reproducing plant grows a flower every
 * FLOWER_TICKS ticks while it has none.
 */
export const STAGE_TICKS = [10, 10, 5] as const;
export const FLOWER_TICKS = 5;

/**
 * What a growing plant endures (ScienceWorld's PlantLifeStage; seeds endure anything): ticks in a row
 * without water before it looks unwell and before it dies — a seedling does not grow on meanwhile, a
 * grown plant only once it looks unwell — ticks without soil (it stops growing at once), and ticks at
 * or beyond its temperature bounds (0 and 50 °C; it looks unwell at once).
 */
export const PLANT_ENDURANCE = {
  dry: { seedling: { unwell: 10, dies: 20 }, grown: { unwell: 25, dies: 50 } },
  soilless: { unwell: 2, dies: 5 },
  outOfBounds: { dies: 5 },
  minC: 0,
  maxC: 50,
} as const;

/** Ticks that flowering plants need bees (and a second flowering plant of their kind) to set fruit. */
export const POLLINATION_TICKS = 3;
