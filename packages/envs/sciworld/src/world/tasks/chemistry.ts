// The chemistry tasks: the two paint-mixing tasks (secondary, tertiary colour) and chemistry-mix (the
// real sixteen recipes × kitchen or workshop), with ScienceWorld's mixing goals.
import { desk, sub, type RoomName, type Spawn } from '../layout.js';
import { TEXT } from '../text.js';
import type { Subgoal } from '../../engine/goals.js';
import { paintMixingContainers } from './task-draws.js';
import { decodeLastFastest, type Builder, type Contents } from './variation.js';

const SECONDARY: Array<{ product: string; inputs: [string, string] }> = [
  { product: 'green', inputs: ['blue paint', 'yellow paint'] },
  { product: 'orange', inputs: ['red paint', 'yellow paint'] },
  { product: 'violet', inputs: ['red paint', 'blue paint'] },
];

/** The real task's six paints, in its order: the secondary colour made first and the tertiary one made from it. */
const PAINTS: Array<{ secondary: number; tertiary: string; add: string }> = [
  { secondary: 0, tertiary: 'green-blue', add: 'blue paint' },
  { secondary: 0, tertiary: 'yellow-green', add: 'yellow paint' },
  { secondary: 1, tertiary: 'red-orange', add: 'red paint' },
  { secondary: 1, tertiary: 'yellow-orange', add: 'yellow paint' },
  { secondary: 2, tertiary: 'violet-red', add: 'red paint' },
  { secondary: 2, tertiary: 'blue-violet', add: 'blue paint' },
];
/** The real grid: the paint (outer) × six places for an extra set of paints (inner). */
const paintOf = (v: number) => PAINTS[decodeLastFastest(v, [PAINTS.length, 6])[0]!]!;

/**
 * The real task's extra set of red, blue and yellow paint: in a "paint cupboard" (wood cups), a
 * "paint closet" (glass cups) or on a desk (tin cups), in the art studio or — with a mixing
 * container of its own, the task's shuffle of glass cup, bowl and jug — in the workshop.
 */
function placeExtraPaints(v: number, contents: Contents, task: 'secondary' | 'tertiary'): RoomName {
  const place = decodeLastFastest(v, [PAINTS.length, 6])[1]!;
  const room: RoomName = place < 3 ? 'art studio' : 'workshop';
  const paints = (cup: Spawn['kind']): Spawn[] => ['red', 'blue', 'yellow'].map((c): Spawn => ({ kind: cup, contents: [sub('paint', { name: `${c} paint` })] }));
  const holder: Spawn = [{ kind: 'cupboard', name: 'paint cupboard', contents: paints('wood cup') }, { kind: 'closet', name: 'paint closet', contents: paints('glass cup') }, desk(paints('tin cup'))][
    place % 3
  ] as Spawn;
  contents[room].push(holder);
  if (room === 'workshop') {
    const mixer = paintMixingContainers(v, task)[place % 3]!;
    contents.workshop.push(mixer === 'wood bowl' ? { kind: 'wood bowl', name: 'bowl' } : { kind: mixer });
  }
  return room;
}

/** ScienceWorld's mixing goals: near each ingredient, all of them alone in one container, near the product. */
function mixingGoals(inputs: readonly string[], product: string, after?: number): Subgoal[] {
  const gate = (g: Subgoal): Subgoal => (after === undefined ? g : { type: 'after', after: [after], goal: g });
  return [...inputs.map((called) => gate({ type: 'sameRoom', match: { called } })), { type: 'onlyThese', names: [...inputs] }, { type: 'sameRoom', match: { called: product } }];
}

export const paintSecondary: Builder = (v, contents) => {
  const s = SECONDARY[paintOf(v).secondary]!;
  placeExtraPaints(v, contents, 'secondary');
  const table = contents['art studio'].find((x) => x.kind === 'table')!;
  table.contents![0]!.tags = ['mixer'];
  const product = `${s.product} paint`;
  return {
    description: `Your task is to use chemistry to create ${s.product} paint. When you are done, focus on the ${s.product} paint.`,
    goals: {
      // ScienceWorld scores the focus on the product; optional: moved anywhere new, then the mixing goals.
      ordered: [{ type: 'focus', match: { name: product }, failIfWrong: true }],
      optional: [{ type: 'movedAway' }, ...mixingGoals(s.inputs, product)],
    },
    plan: { kind: 'paint', inputs: s.inputs, product },
  };
};

export const paintTertiary: Builder = (v, contents) => {
  const t = paintOf(v);
  const paintRoom = placeExtraPaints(v, contents, 'tertiary');
  const s = SECONDARY[t.secondary]!;
  const table = contents['art studio'].find((x) => x.kind === 'table')!;
  table.contents![0]!.tags = ['mixer'];
  const intermediate = `${s.product} paint`;
  const product = `${t.tertiary} paint`;
  return {
    // (ref) The real template ends on the secondary colour, as reproduced here.
    description: `Your task is to use chemistry to create ${product}. When you are part-way done, focus on the intermediate (secondary color) paint you created.  When you are completely done, focus on the ${intermediate}.`,
    goals: {
      // ScienceWorld scores the focus on the intermediate, then on the product; optional: moved away
      // (unless at the extra paints), at the extra paints, the secondary mixing goals, then — once near
      // the secondary paint — the tertiary ones.
      ordered: [
        { type: 'focus', match: { name: intermediate }, failIfWrong: true },
        { type: 'focus', match: { name: product }, failIfWrong: true },
      ],
      optional: [{ type: 'movedAway', unless: paintRoom }, { type: 'inRoom', room: paintRoom }, ...mixingGoals(s.inputs, intermediate), ...mixingGoals([intermediate, t.add], product, 5)],
    },
    plan: { kind: 'paint', inputs: s.inputs, product: intermediate, then: { input: t.add, product } },
  };
};

/** The ingredients of chemistry-mix as the real task creates them (water and paint are to be found, not added). */
const INGREDIENTS: Readonly<Record<string, Spawn | undefined>> = {
  'sodium chloride': sub('sodium chloride'),
  soap: sub('soap'),
  water: undefined,
  peanut: { kind: 'food', name: 'peanut' },
  almond: { kind: 'food', name: 'almond' },
  cashew: { kind: 'food', name: 'cashew' },
  'acetic acid': sub('acetic acid', { bornName: 'acetic acid', state: 'solid', temperature: 10 }),
  'sodium bicarbonate': sub('sodium bicarbonate'),
  banana: { kind: 'food', name: 'banana' },
  bread: { kind: 'food', name: 'bread' },
  jam: { kind: 'food', name: 'jam' },
  paper: { kind: 'paper', name: 'paper', shown: 'A blank paper' },
  'blue paint': undefined,
  'red paint': undefined,
  chocolate: sub('chocolate'),
  marshmallow: sub('marshmallow'),
  flour: sub('flour'),
  apple: { kind: 'food', name: 'apple', shown: 'red apple' },
  orange: { kind: 'food', name: 'orange' },
  sugar: sub('sugar'),
  'iron block': { kind: 'block', name: 'iron block', material: 'iron' },
};

/** The real task's recipes in its order: eight, four and four per location (kitchen, workshop). */
const CHEMISTRY_GROUPS: ReadonlyArray<ReadonlyArray<readonly [string, readonly string[]]>> = [
  [
    ['salt water', ['sodium chloride', 'water']],
    ['soapy water', ['soap', 'water']],
    ['mixed nuts', ['peanut', 'almond', 'cashew']],
    ['sodium acetate', ['acetic acid', 'sodium bicarbonate']],
    ['banana sandwich', ['banana', 'bread']],
    ['blue paper', ['paper', 'blue paint']],
    ['peanut butter sandwich', ['peanut', 'bread']],
    ['peanut butter with jam sandwich', ['peanut', 'jam', 'bread']],
  ],
  [
    ['smores', ['chocolate', 'marshmallow']],
    ['dough', ['flour', 'water']],
    ['fruit salad', ['apple', 'orange', 'banana']],
    ['jam sandwich', ['jam', 'bread']],
  ],
  [
    ['sugar water', ['sugar', 'water']],
    ['peanut butter with banana sandwich', ['peanut', 'banana', 'bread']],
    ['rust', ['iron block', 'water']],
    ['red paper', ['paper', 'red paint']],
  ],
];
const CHEMISTRY_GRID = CHEMISTRY_GROUPS.flatMap((group) => (['kitchen', 'workshop'] as const).flatMap((room) => group.map(([product, inputs]) => ({ product, inputs, room }))));

/** Whether the room already holds a thing of that name (the real task then adds none). */
function roomHas(spawns: readonly Spawn[], name: string): boolean {
  return spawns.some((s) => (s.name ?? (s.kind === 'substance' ? s.material : s.kind)) === name || roomHas(s.contents ?? [], name));
}

/**
 * chemistry-mix on the real grid: the recipe and the ingredients (but water and paint) in the
 * kitchen or the workshop, unless already there; scored by the focus on the product.
 */
export const chemistryMix: Builder = (v, contents) => {
  const { product, inputs, room } = CHEMISTRY_GRID[v]!;
  for (const input of inputs) {
    const spawn = INGREDIENTS[input];
    if (spawn && !roomHas(contents[room], input)) contents[room].push({ ...spawn, tags: ['reagent'] });
  }
  contents[room].push({ kind: 'recipe', name: 'recipe', shown: TEXT.recipeShown(product), tags: ['recipe'], text: TEXT.recipe(product, inputs) });
  return {
    description: `Your task is to use chemistry to create the substance '${product}'. A recipe and some of the ingredients might be found near the ${room}. When you are done, focus on the ${product}.`,
    goals: {
      ordered: [{ type: 'focus', match: { name: product }, failIfWrong: true }],
      // ScienceWorld's: moved anywhere new, the mixing goals, the recipe read.
      optional: [{ type: 'movedAway' }, ...mixingGoals(inputs, product), { type: 'readSince', match: { tag: 'recipe' } }],
    },
    plan: { kind: 'chemistry', product, room, inputs: [...inputs] },
  };
};
