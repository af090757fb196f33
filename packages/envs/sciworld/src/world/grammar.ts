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

/**
 * Mixing recipes (ScienceWorld's Chemistry): the sorted distinct names of a container's contents →
 * the product, with the sentence the real engine answers (its quirks kept: both paper recipes say
 * "blue paint", the sandwiches all say "peanuts").
 */
export const RECIPES: ReadonlyArray<{ inputs: readonly string[]; product: { name: string; material: string }; message: string }> = [
  { inputs: ['blue paint', 'red paint'], product: { name: 'violet paint', material: 'paint' }, message: 'Red and blue paint mix to produce violet paint.' },
  { inputs: ['blue paint', 'yellow paint'], product: { name: 'green paint', material: 'paint' }, message: 'Blue and yellow paint mix to produce green paint.' },
  { inputs: ['red paint', 'yellow paint'], product: { name: 'orange paint', material: 'paint' }, message: 'Yellow and red paint mix to produce orange paint.' },
  { inputs: ['green paint', 'yellow paint'], product: { name: 'yellow-green paint', material: 'paint' }, message: 'Green and yellow paint mix to produce yellow-green paint.' },
  { inputs: ['blue paint', 'green paint'], product: { name: 'green-blue paint', material: 'paint' }, message: 'Blue and green paint mix to produce blue green paint.' },
  { inputs: ['blue paint', 'violet paint'], product: { name: 'blue-violet paint', material: 'paint' }, message: 'Blue and violet paint mix to produce blue-violet paint.' },
  { inputs: ['red paint', 'violet paint'], product: { name: 'violet-red paint', material: 'paint' }, message: 'Violet and red paint mix to produce violet-red paint.' },
  { inputs: ['orange paint', 'red paint'], product: { name: 'red-orange paint', material: 'paint' }, message: 'Red and orange paint mix to produce red-orange paint.' },
  { inputs: ['orange paint', 'yellow paint'], product: { name: 'yellow-orange paint', material: 'paint' }, message: 'Yellow and orange paint mix to produce yellow-orange paint.' },
  { inputs: ['sodium chloride', 'water'], product: { name: 'salt water', material: 'water' }, message: 'Sodium chloride and water mix to produce salt water.' },
  { inputs: ['soap', 'water'], product: { name: 'soapy water', material: 'water' }, message: 'Soap and water mix to produce soapy water.' },
  { inputs: ['sugar', 'water'], product: { name: 'sugar water', material: 'water' }, message: 'Sugar and water mix to produce sugar water.' },
  { inputs: ['flour', 'water'], product: { name: 'dough', material: 'mixture' }, message: 'Flour and water mix to produce dough.' },
  { inputs: ['chocolate', 'marshmallow'], product: { name: 'smores', material: 'mixture' }, message: 'Chocolate and marshmallow mix to produce smores.' },
  { inputs: ['iron block', 'water'], product: { name: 'rust', material: 'mixture' }, message: 'Iron block and water mix to produce rust.' },
  { inputs: ['acetic acid', 'sodium bicarbonate'], product: { name: 'sodium acetate', material: 'sodium acetate' }, message: 'Sodium bicarbonate and acetic acid mix to produce sodium acetate.' },
  { inputs: ['bread', 'peanut'], product: { name: 'peanut butter sandwich', material: 'mixture' }, message: 'Bread and peanuts mix to produce a peanut butter sandwich.' },
  { inputs: ['bread', 'jam'], product: { name: 'jam sandwich', material: 'mixture' }, message: 'Bread and peanuts mix to produce a jam sandwich.' },
  { inputs: ['banana', 'bread'], product: { name: 'banana sandwich', material: 'mixture' }, message: 'Bread and peanuts mix to produce a banana sandwich.' },
  { inputs: ['blue paint', 'paper'], product: { name: 'blue paper', material: 'mixture' }, message: 'Paper and blue paint mix to produce blue paper.' },
  { inputs: ['paper', 'red paint'], product: { name: 'red paper', material: 'mixture' }, message: 'Paper and blue paint mix to produce red paper.' },
  { inputs: ['almond', 'cashew', 'peanut'], product: { name: 'mixed nuts', material: 'mixture' }, message: 'Peanuts, almonds, and cashews mix to produce mixed nuts.' },
  { inputs: ['apple', 'banana', 'orange'], product: { name: 'fruit salad', material: 'mixture' }, message: 'Apples, oranges, and bananas mix to produce fruit salad.' },
  {
    inputs: ['bread', 'jam', 'peanut'],
    product: { name: 'peanut butter with jam sandwich', material: 'mixture' },
    message: 'Bread and peanuts and jam mix to produce a peanut butter with jam sandwich.',
  },
  {
    inputs: ['banana', 'bread', 'peanut'],
    product: { name: 'peanut butter with banana sandwich', material: 'mixture' },
    message: 'Bread and peanuts and jam mix to produce a peanut butter with banana sandwich.',
  },
];

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
