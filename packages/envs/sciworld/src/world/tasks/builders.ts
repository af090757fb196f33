// Variation builders of the implemented tasks: each turns a variation index into world edits, the
// exact task description, the goal sequence and a plan hint for the expert. Variation grids are data.
import type { Rng } from '@diffworld/env-core';
import { desk, sub, type RoomName, type Spawn } from '../layout.js';
import { material as materialOf, nameInState, THERMAL_UNKNOWN_CREATED_C, THERMAL_UNKNOWN_MELTING_POINTS } from '../materials.js';
import type { GoalSpec, Match, Subgoal } from '../../engine/goals.js';
import { TEXT } from '../text.js';
import { kindDef } from '../kinds.js';
import {
  changeOfStateCups,
  cupAt,
  findPeaHeight,
  mendelKnownSeeds,
  mendelUnknownSeeds,
  paintMixingContainers,
  findPotNumbers,
  lifeStagePotNumbers,
  mendelPotNumbers,
  unknownSubstanceConductive,
  thermometerTaskTemperature,
  type CUPPED_SUBSTANCES,
  type TraitValues,
} from './task-draws.js';
import { JavaRandom, scalaShuffle } from '../../engine/java-random.js';
import { animalStageName, lifeStages } from '../animals.js';
import { seedName } from '../plant-traits.js';

export type Plan =
  | { kind: 'state'; goal: 'boil' | 'melt' | 'freeze' | 'change'; material: string }
  | { kind: 'thermometer'; threshold: number; above: string; below: string; boxRoom: RoomName }
  | { kind: 'meltingPoint'; subject: string; meltingPoint: number; threshold: number; above: string; below: string; boxRoom: RoomName }
  | { kind: 'power'; source?: string }
  | { kind: 'conductivity'; conductive: string; nonconductive: string; subject?: string; answer?: boolean }
  | { kind: 'find'; what: FindWhat; box: string; boxRoom: RoomName }
  | { kind: 'lifespan'; order: string[] }
  | { kind: 'paint'; inputs: [string, string]; product: string; then?: { input: string; product: string } }
  | { kind: 'grow'; species: string; seedRoom: RoomName; fruit?: boolean }
  | { kind: 'chemistry'; product: string; room: RoomName; inputs: string[] }
  | { kind: 'stages'; tags: string[] }
  /** Focus on one animal at each of its first `stages` life stages, waiting while it ages. */
  | { kind: 'aging'; species: string; stages: number }
  | { kind: 'incline'; answer: string }
  | { kind: 'genetics'; answer: string };

export type FindWhat = 'living' | 'nonliving' | 'plant' | 'animal';

export interface VariationBuild {
  description: string;
  goals: GoalSpec;
  plan: Plan;
}

export type Contents = Record<RoomName, Spawn[]>;
export type Builder = (variation: number, contents: Contents, rng: Rng) => VariationBuild;

/** Mixed-radix decoding of a variation index over a grid of axis sizes (first axis fastest). */
function decode(v: number, sizes: number[]): number[] {
  return sizes.map((s) => {
    const d = v % s;
    v = Math.floor(v / s);
    return d;
  });
}

const target = ['target'];

// ---- change of state ----------------------------------------------------------------------

/**
 * Mixed-radix decoding the way ScienceWorld enumerates its variations: nested loops over the axes
 * in order, the last axis fastest (index = ((a0 · n1) + a1) · n2 + a2 …).
 */
export function decodeLastFastest(v: number, sizes: number[]): number[] {
  const out = new Array<number>(sizes.length);
  for (let i = sizes.length - 1; i >= 0; i--) {
    out[i] = v % sizes[i]!;
    v = Math.floor(v / sizes[i]!);
  }
  return out;
}

interface StateSubstance {
  /** The name the task description uses. */
  label: string;
  material: string;
  /** Edits the world; `cup` is the container the real engine drew for this substance, when it draws one. */
  place: (c: Contents, cup: (name: CuppedSubstance) => string) => void;
}

type CuppedSubstance = (typeof CUPPED_SUBSTANCES)[number];

const inRoom = (room: RoomName, s: Spawn) => (c: Contents) => void c[room].push(s);
const inAppliance = (room: RoomName, kind: string, s: Spawn) => (c: Contents) => {
  const app = c[room].find((x) => x.kind === kind);
  if (!app) throw new Error(`sciworld: base world lacks a ${kind} in the ${room}`);
  (app.contents ??= []).push(s);
};
const removeKind = (room: RoomName, kind: string) => (c: Contents) => {
  c[room] = c[room].filter((x) => x.kind !== kind);
};
/** ScienceWorld's TaskDisable: the room's device stays, broken. */
const breakKind = (room: RoomName, kind: string) => (c: Contents) => {
  const dev = c[room].find((x) => x.kind === kind);
  if (!dev) throw new Error(`sciworld: base world lacks a ${kind} in the ${room}`);
  dev.broken = true;
};
const onWorkshopTable = (s: Spawn) => (c: Contents) => {
  const table = c.workshop.find((x) => x.tags?.includes('workbench'));
  if (!table) throw new Error('sciworld: base world lacks the workshop table');
  (table.contents ??= []).push(s);
};
/** A substance in a drawn cup that starts at the substance's temperature (ScienceWorld's liquid cups do: ice cream's at −15 °C). */
const cupped = (cup: string, material: string, extra: Partial<Spawn> = {}): Spawn => {
  const temperature = extra.temperature ?? materialOf(material).temperature;
  return { kind: cup as Spawn['kind'], ...(temperature === undefined ? {} : { temperature }), contents: [sub(material, { tags: target, ...extra })] };
};

/**
 * The fifteen substances in the real task's order. Water is the kitchen's (or, with the kitchen
 * sink broken, any other source's); orange juice is the fridge's own cup; a marshmallow or soap goes
 * in the kitchen cupboard (the real engine shuffles the kitchen's objects to pick among cupboard and
 * table; the recordings show the cupboard); metals come in the drawn cup on the workshop table.
 */
const STATE_SUBSTANCES: StateSubstance[] = [
  { label: 'water', material: 'water', place: () => undefined },
  { label: 'water', material: 'water', place: (c) => breakKind('kitchen', 'sink')(c) },
  { label: 'ice', material: 'water', place: (c) => inAppliance('kitchen', 'freezer', sub('water', { temperature: -10, tags: target }))(c) },
  { label: 'orange juice', material: 'orange juice', place: () => undefined },
  { label: 'apple juice', material: 'apple juice', place: (c, cup) => inAppliance('kitchen', 'fridge', cupped(cup('apple juice'), 'apple juice'))(c) },
  { label: 'chocolate', material: 'chocolate', place: (c) => inAppliance('kitchen', 'fridge', sub('chocolate', { tags: target }))(c) },
  { label: 'marshmallow', material: 'marshmallow', place: (c) => inAppliance('kitchen', 'cupboard', sub('marshmallow', { tags: target }))(c) },
  { label: 'ice cream', material: 'ice cream', place: (c, cup) => inAppliance('kitchen', 'freezer', cupped(cup('ice cream'), 'ice cream'))(c) },
  { label: 'soap', material: 'soap', place: () => undefined },
  { label: 'rubber', material: 'rubber', place: (c) => onWorkshopTable(sub('rubber', { tags: target }))(c) },
  ...(['lead', 'tin', 'mercury', 'gallium', 'caesium'] as const).map((m): StateSubstance => ({ label: m, material: m, place: (c, cup) => onWorkshopTable(cupped(cup(m), m, { bornName: m }))(c) })),
];

const STATE_VERB = { boil: 'boil', melt: 'melt', freeze: 'freeze', change: 'change the state of matter of' } as const;
const STATE_MODE = { boil: 'boil', melt: 'melt', freeze: 'freeze', change: 'change' } as const;

function stateBuilder(goal: 'boil' | 'melt' | 'freeze' | 'change'): Builder {
  return (v, contents) => {
    const [si, stove] = decodeLastFastest(v, [STATE_SUBSTANCES.length, 2]);
    const s = STATE_SUBSTANCES[si!]!;
    const cups = changeOfStateCups(v, STATE_MODE[goal]);
    s.place(contents, (name) => cups[name]);
    if (stove === 1) breakKind('kitchen', 'stove')(contents);
    const label = s.label;
    const combustNote = goal === 'boil' ? 'For compounds without a boiling point, combusting the substance is also acceptable. ' : '';
    const description = `Your task is to ${STATE_VERB[goal]} ${label}. ${combustNote}First, focus on the substance. Then, take actions that will cause it to change its state of matter.`;
    const focus: Subgoal = { type: 'focus', match: { material: s.material }, failIfWrong: true };
    // ScienceWorld's ordered goals per mode (change: any state, then a different one).
    const seq: Subgoal[] =
      goal === 'boil'
        ? [focus, { type: 'focusState', states: ['liquid', 'gas'], orCombusted: true }, { type: 'focusState', states: ['gas'], orCombusted: true }]
        : goal === 'melt'
          ? [focus, { type: 'focusState', states: ['solid'] }, { type: 'focusState', states: ['liquid'] }]
          : goal === 'freeze'
            ? [focus, { type: 'focusState', states: ['liquid'] }, { type: 'focusState', states: ['solid'] }]
            : [focus, { type: 'focusState', states: ['solid', 'liquid', 'gas'], orCombusted: true }, { type: 'focusChangedState' }];
    return {
      description,
      goals: {
        ordered: seq,
        optional: changeOfStateOptionalGoals(goal, s.material),
      },
      plan: { kind: 'state', goal, material: s.material },
    };
  };
}

/**
 * The change-of-state tasks' optional goals, ScienceWorld's list for each mode in its order: near the
 * substance, the substance alone in a container, a heater on (stove, blast furnace, oven, hot plate)
 * or a fire built (lighter carried, wood in the fire pit, then the wood burning), the focused
 * substance on a heater or in a cooler, and it warmed (or cooled) by a margin.
 */
function changeOfStateOptionalGoals(goal: keyof typeof STATE_MODE, material: string): Subgoal[] {
  const substance = { material };
  const near: Subgoal[] = [
    { type: 'sameRoom', match: substance },
    { type: 'alone', match: substance },
  ];
  const coolers = [focusedIn('fridge'), focusedIn('freezer')];
  if (goal === 'freeze') return [...near, ...coolers, { type: 'focusTemperature', by: -5 }];
  const heating = [...heaterOrFireGoals(near.length), ...HEATER_NAMES.concat('fire pit').map(focusedIn)];
  if (goal === 'change') return [...near, ...heating, ...coolers, { type: 'focusTemperature', by: 10 }, { type: 'focusTemperature', by: -10 }];
  return [...near, ...heating, { type: 'focusTemperature', by: 20 }];
}

const HEATER_NAMES = ['stove', 'blast furnace', 'oven', 'hot plate'];
/** ScienceWorld's GoalObjectInContainer: the focused thing is in (or on) a container of this name, at any depth. */
const focusedIn = (name: string): Subgoal => ({ type: 'inside', match: { focused: true }, container: { name } });

/**
 * ScienceWorld's heating goals as its tasks list them from optional index `at`: a heater on near the
 * agent (stove, blast furnace, oven, hot plate), or a fire: lighter carried, wood in the fire pit,
 * then (once the wood is in) the wood burning.
 */
function heaterOrFireGoals(at: number): Subgoal[] {
  return [
    ...HEATER_NAMES.map((name): Subgoal => ({ type: 'activated', match: { name, nearAgent: true } })),
    { type: 'directlyIn', match: { kind: 'lighter' }, container: { kind: 'agent' } },
    { type: 'directlyIn', match: { material: 'wood' }, container: { kind: 'fire pit', nearAgent: true } },
    { type: 'after', after: [at + HEATER_NAMES.length + 1], goal: { type: 'exists', match: { material: 'wood', combusted: true, nearAgent: true } } },
  ];
}

/**
 * The measure-melting-point tasks' 25 optional goals, ScienceWorld's list in its order: near and
 * carrying the thermometer, moving (anywhere new; to the substance's room or the boxes' room, then
 * to a room with a heater), carrying the substance, using the thermometer (and again once the
 * substance is heated), the substance alone in a container, heating goals, and — once the substance
 * is focused — it on a heater and warmed by 20 °C.
 */
function meltingPointOptionalGoals(subject: Match, room: RoomName, boxRoom: RoomName): Subgoal[] {
  const thermometer: Match = { kind: 'thermometer' };
  const toRoom = [3, 4];
  const heated = 24;
  const focused = 2;
  const goals: Subgoal[] = [
    { type: 'sameRoom', match: thermometer },
    { type: 'directlyIn', match: thermometer, container: { kind: 'agent' } },
    { type: 'movedAway' },
    { type: 'inRoom', room },
    { type: 'inRoom', room: boxRoom },
    ...(['kitchen', 'outside', 'foundry'] as const).map((r): Subgoal => ({ type: 'after', after: toRoom, goal: { type: 'inRoom', room: r } })),
    { type: 'directlyIn', match: subject, container: { kind: 'agent' } },
    { type: 'usedSince', tool: thermometer, target: subject },
    { type: 'after', after: [heated], goal: { type: 'usedSince', tool: thermometer, target: subject } },
    { type: 'alone', match: subject },
    ...heaterOrFireGoals(12),
    ...HEATER_NAMES.concat('fire pit').map((name): Subgoal => ({ type: 'after', afterOrdered: focused, goal: focusedIn(name) })),
    { type: 'after', afterOrdered: focused, goal: { type: 'focusTemperature', by: 20 } },
  ];
  return goals;
}

// ---- thermometer and melting point ---------------------------------------------------------

const BOX_PAIRS: Array<[string, string]> = [];
for (const a of ['red', 'green', 'blue', 'orange', 'yellow', 'purple']) for (const b of ['red', 'green', 'blue', 'orange', 'yellow', 'purple']) if (a !== b) BOX_PAIRS.push([a, b]);
const BOX_ROOMS: RoomName[] = ['kitchen', 'bathroom', 'workshop', 'art studio', 'greenhouse', 'hallway', 'bedroom', 'living room', 'outside', 'foundry'];

function addBoxes(contents: Contents, room: RoomName, pair: [string, string]): [string, string] {
  const names: [string, string] = [`${pair[0]} box`, `${pair[1]} box`];
  contents[room].push({ kind: 'box', name: names[0], tags: ['boxA'] }, { kind: 'box', name: names[1], tags: ['boxB'] });
  return names;
}

// ---- use thermometer (the real grid of TaskUseInstrumentThermometer) --------------------------

const UT_LOCATIONS: RoomName[] = ['living room', 'bedroom', 'bathroom'];
const UT_TEMPERATURE_POINTS = [-50, 0, 50, 100, 200];

interface ThermoCandidate {
  name: string;
  room: RoomName;
  /** The temperature point the object's own random temperature is drawn around. */
  around: number;
  /** Construction index: the object's two draws are at 2·order, 2·order + 1. */
  order: number;
  spawn: (temperature: number) => Spawn;
}

/** Per location and temperature point: salt, a metal fork, wood, a wire, then twenty "unknown substance B". */
const THERMO_CANDIDATES: ThermoCandidate[] = (() => {
  const out: ThermoCandidate[] = [];
  const kinds: Array<[string, (temperature: number) => Spawn]> = [
    ['sodium chloride', (temperature) => sub('sodium chloride', { temperature, tags: target })],
    ['metal fork', (temperature) => ({ kind: 'conductor item', name: 'metal fork', material: 'steel', temperature, tags: target })],
    ['wood', (temperature) => sub('wood', { temperature, tags: target })],
    ['wire', (temperature) => ({ kind: 'wire', temperature, tags: target })],
    ...Array.from({ length: 20 }, (): [string, (temperature: number) => Spawn] => [
      'unknown substance B',
      (temperature) => sub('unknown metal', { name: 'unknown substance B', temperature, tags: target }),
    ]),
  ];
  for (const room of UT_LOCATIONS) for (const around of UT_TEMPERATURE_POINTS) for (const [name, spawn] of kinds) out.push({ name, room, around, order: out.length, spawn });
  return out;
})();

let thermoGrid: Array<[ThermoCandidate, number, number]> | undefined;

/** object × temperature point × (box room, box pair), the last fastest, subsampled to 2 % within the splits. */
function thermometerGrid(): Array<[ThermoCandidate, number, number]> {
  const sorted = [...THERMO_CANDIDATES].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : x.order - y.order));
  const combos: Array<[ThermoCandidate, number, number]> = [];
  for (const c of sorted) for (const t of UT_TEMPERATURE_POINTS) for (let k = 0; k < UT_LOCATIONS.length * 5; k++) combos.push([c, t, k]);
  return subsampleWithinSplits(combos, 0.02);
}

const useThermometer: Builder = (v, contents) => {
  const [obj, T, k] = (thermoGrid ??= thermometerGrid())[v]!;
  contents[obj.room].push(obj.spawn(thermometerTaskTemperature(v, obj.order, obj.around)));
  const boxRoom = UT_LOCATIONS[Math.floor(k / 5)]!;
  const [boxA, boxB] = addBoxes(contents, boxRoom, [ANSWER_BOX_COLORS[k % 5]!, ANSWER_BOX_COLORS[(k % 5) + 1]!]);
  const n = obj.name;
  const t = javaDouble(T);
  return {
    description: `Your task is to measure the temperature of ${n}, which is located around the ${obj.room}. First, focus on the thermometer. Next, focus on the ${n}. If the ${n} temperature is above ${t} degrees celsius, place it in the ${boxA}. If the ${n} temperature is below ${t} degrees celsius, place it in the ${boxB}. The boxes are located around the ${boxRoom}. `,
    goals: {
      ordered: [
        { type: 'focus', match: { kind: 'thermometer' }, failIfWrong: true },
        { type: 'focus', match: { tag: 'target' }, failIfWrong: true },
        { type: 'insideByTemperature', match: { tag: 'target' }, threshold: T, above: { tag: 'boxA' }, below: { tag: 'boxB' } },
      ],
      // ScienceWorld's eight, in its order: near and carrying the thermometer, moved anywhere new, in
      // the object's room then (after it) the boxes' room, carrying the object, a thermometer use, and
      // a use once in the boxes' room.
      optional: [
        { type: 'sameRoom', match: { kind: 'thermometer' } },
        { type: 'directlyIn', match: { kind: 'thermometer' }, container: { kind: 'agent' } },
        { type: 'movedAway' },
        { type: 'inRoom', room: obj.room },
        { type: 'after', after: [3], goal: { type: 'inRoom', room: boxRoom } },
        { type: 'directlyIn', match: { tag: 'target' }, container: { kind: 'agent' } },
        { type: 'usedSince', tool: { kind: 'thermometer' }, target: { tag: 'target' } },
        { type: 'after', after: [4], goal: { type: 'usedSince', tool: { kind: 'thermometer' }, target: { tag: 'target' } } },
      ],
    },
    plan: { kind: 'thermometer', threshold: T, above: boxA, below: boxB, boxRoom },
  };
};

// ---- measure melting point (the real grids of TaskUseInstrumentThermometer2 and 3) -------------

const MP_TEMPERATURE_POINTS = [-10, 10, 50, 150, 200];
const ANSWER_BOX_COLORS = ['red', 'green', 'blue', 'orange', 'yellow', 'purple'];

/** A Scala Double as the real descriptions print it ("-10.0", "150.0"). */
const javaDouble = (x: number) => (Number.isInteger(x) ? `${x}.0` : String(x));

/**
 * ScienceWorld's subsampleWithinTrainDevTest: the combination list cut 50/25/25 into its train,
 * dev and test parts, each shuffled by one scala.util.Random(5) in turn and cut to `proportion`.
 */
export function subsampleWithinSplits<T>(combos: readonly T[], proportion: number): T[] {
  const n = combos.length;
  const a = Math.floor(n * 0.5);
  const b = Math.floor(n * 0.75);
  const rng = new JavaRandom(5);
  return [combos.slice(0, a), combos.slice(a, b), combos.slice(b)].flatMap((part) => scalaShuffle(rng, part).slice(0, Math.floor(part.length * proportion)));
}

interface MeltCandidate {
  /** The name the task gives the substance (also its name in the world until it changes state). */
  name: string;
  meltingPoint: number;
  /** Construction order (the real sort by name is stable). */
  order: number;
  place: (c: Contents, variation: number) => void;
}

/** object × temperature point × answer box pair, the last fastest, then subsampled within the splits. */
function meltGrid(candidates: MeltCandidate[], proportion: number): Array<[MeltCandidate, number, number]> {
  const sorted = [...candidates].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : x.order - y.order));
  const combos: Array<[MeltCandidate, number, number]> = [];
  for (const c of sorted) for (const t of MP_TEMPERATURE_POINTS) for (let k = 0; k < ANSWER_BOX_COLORS.length - 1; k++) combos.push([c, t, k]);
  return subsampleWithinSplits(combos, proportion);
}

/** A substance created in a cup on the kitchen floor (ContainerMaker.mkRandomLiquidCup, drawn at `draw`). */
const kitchenCup = (material: string, name: string, draw: number) => (c: Contents, variation: number) =>
  void c.kitchen.push({ kind: cupAt(variation, draw) as Spawn['kind'], contents: [sub(material, { bornName: name, temperature: THERMAL_UNKNOWN_CREATED_C, tags: target })] });

/** The known substances in the real construction order: per temperature point water, orange juice, chocolate, mercury, gallium, tin, lead. */
const KNOWN_MELT: MeltCandidate[] = MP_TEMPERATURE_POINTS.flatMap((_, t) => {
  const metal = (m: string, i: number): MeltCandidate => ({ name: m, meltingPoint: materialOf(m).meltingPoint, order: t * 7 + 3 + i, place: kitchenCup(m, m, t * 5 + 1 + i) });
  return [
    // Water comes from the house's own sources; the fridge already holds the orange juice (its drawn cup is unused).
    { name: 'water', meltingPoint: 0, order: t * 7, place: () => undefined },
    { name: 'orange juice', meltingPoint: 0, order: t * 7 + 1, place: () => undefined },
    { name: 'chocolate', meltingPoint: materialOf('chocolate').meltingPoint, order: t * 7 + 2, place: inAppliance('kitchen', 'fridge', sub('chocolate', { tags: target })) },
    ...['mercury', 'gallium', 'tin', 'lead'].map(metal),
  ];
});

/** Draws the known-substance task makes while constructed (five cups per temperature point). */
const KNOWN_MELT_DRAWS = MP_TEMPERATURE_POINTS.length * 5;

/**
 * The unknown substances in construction order: five passes over the temperature points, each over
 * the 24 letters; each draws a coin (unused) and, when liquid at 10 °C (melting point below 15), a cup.
 */
const UNKNOWN_MELT: MeltCandidate[] = (() => {
  const out: MeltCandidate[] = [];
  let draw = KNOWN_MELT_DRAWS;
  for (let pass = 0; pass < MP_TEMPERATURE_POINTS.length; pass++)
    for (let t = 0; t < MP_TEMPERATURE_POINTS.length; t++)
      for (const [letter, mp] of Object.entries(THERMAL_UNKNOWN_MELTING_POINTS)) {
        draw++;
        const material = `thermal unknown ${letter}`;
        const name = nameInState(material, materialOf(material).state);
        const place = mp < 15 ? kitchenCup(material, name, draw++) : (c: Contents) => void c.kitchen.push(sub(material, { tags: target }));
        out.push({ name, meltingPoint: mp, order: out.length, place });
      }
  return out;
})();

let knownGrid: Array<[MeltCandidate, number, number]> | undefined;
let unknownGrid: Array<[MeltCandidate, number, number]> | undefined;

const meltingPoint: Builder = (v, contents) => meltingPointOf((knownGrid ??= meltGrid(KNOWN_MELT, 0.5)), v, contents);
const meltingPointUnknown: Builder = (v, contents) => meltingPointOf((unknownGrid ??= meltGrid(UNKNOWN_MELT, 0.02)), v, contents);

function meltingPointOf(grid: Array<[MeltCandidate, number, number]>, v: number, contents: Contents): VariationBuild {
  const [s, T, k] = grid[v]!;
  s.place(contents, v);
  const [above, below] = addBoxes(contents, 'kitchen', [ANSWER_BOX_COLORS[k]!, ANSWER_BOX_COLORS[k + 1]!]);
  const n = s.name;
  const t = javaDouble(T);
  const subject: Match = n === 'water' || n === 'orange juice' ? { name: n } : { tag: 'target' };
  return {
    description: `Your task is to measure the melting point of ${n}, which is located around the kitchen. First, focus on the thermometer. Next, focus on the ${n}. If the melting point of ${n} is above ${t} degrees celsius, focus on the ${above}. If the melting point of ${n} is below ${t} degrees celsius, focus on the ${below}. The boxes are located around the kitchen. `,
    goals: {
      // The real sequence: thermometer, substance, then the right box (melting point ≥ the point → the "above" box).
      ordered: [
        { type: 'focus', match: { kind: 'thermometer' }, failIfWrong: true },
        { type: 'focus', match: subject, failIfWrong: true },
        { type: 'focus', match: { tag: s.meltingPoint >= T ? 'boxA' : 'boxB' }, failIfWrong: true },
      ],
      optional: meltingPointOptionalGoals(subject, 'kitchen', 'kitchen'),
    },
    plan: { kind: 'meltingPoint', subject: n, meltingPoint: s.meltingPoint, threshold: T, above, below, boxRoom: 'kitchen' },
  };
}

// ---- electricity ----------------------------------------------------------------------------

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
function wiringGoals(subject: Match, joined: Array<[Match, Match]>): Subgoal[] {
  return [
    { type: 'movedAway' },
    { type: 'sameRoom', match: subject },
    { type: 'wiredTerminal', match: subject, terminal: 0 },
    { type: 'wiredTerminal', match: subject, terminal: 1 },
    ...joined.map(([a, b]): Subgoal => ({ type: 'wireBetween', a, b })),
  ];
}

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

const powerComponent: Builder = (v, contents) => {
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

const powerRenewable: Builder = (v, contents) => {
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
const testConductivity: Builder = (v, contents) => {
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
const testConductivityUnknown: Builder = (v, contents) => {
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

// ---- classification -------------------------------------------------------------------------

const TREES = ['apple', 'avocado', 'banana', 'cherry', 'lemon', 'orange', 'peach', 'pear', 'grapefruit', 'apricot'];
const COLORS = ['red', 'green', 'blue', 'orange', 'yellow', 'purple'];
const FIND_BOX_ROOMS: RoomName[] = ['kitchen', 'bathroom', 'living room', 'bedroom', 'workshop'];

/**
 * The real tasks' list of animals, in its order (the find tasks, both life-stage tasks' distractors
 * and identify-life-stages-1's variations all start from it), by their real names (the toad is a
 * "common toad"). A find task's set i shuffles it and the plant list with java.util.Random(i) and
 * keeps the first three of each.
 */
const TASK_ANIMALS = ['butterfly', 'moth', 'frog', 'common toad', 'giant tortoise', 'turtle', 'crocodile', 'parrot', 'dove', 'blue jay', 'elephant', 'brown bear', 'beaver', 'wolf'];
const FIND_PLANTS = ['apple', 'avocado', 'banana', 'cherry', 'lemon', 'orange', 'peach', 'pea'];

/**
 * Three animals outside (at their first life stage), three potted plants and two empty pots in the
 * greenhouse, the pots numbered by the real task's shuffle (findPotNumbers).
 */
function livingWorld(contents: Contents, v: number, what: FindWhat, set: number): void {
  const animals = scalaShuffle(new JavaRandom(set), TASK_ANIMALS).slice(0, 3);
  contents.outside.push(...animals.map((a) => animal(a)));
  const species = scalaShuffle(new JavaRandom(set), FIND_PLANTS).slice(0, 3);
  const numbers = findPotNumbers(v, FIND_MODES.indexOf(what), set);
  contents.greenhouse.push(
    ...species.map(
      (s, i): Spawn => ({
        kind: 'flower pot',
        name: `flower pot ${numbers[i]}`,
        contents: [{ kind: 'plant', species: s, stage: 2, ...(s === 'pea' ? { genes: findPeaHeight(v, FIND_MODES.indexOf(what), set, REAL_PEA_TRAITS) } : {}) }, sub('soil')],
      }),
    ),
    ...numbers.slice(3, 5).map((n): Spawn => ({ kind: 'flower pot', name: `flower pot ${n}` })),
  );
}

/** The find tasks in the order the real engine constructs them. */
const FIND_MODES: FindWhat[] = ['living', 'nonliving', 'plant', 'animal'];

const FIND_THING: Record<FindWhat, { words: string; match: Match }> = {
  living: { words: 'a(n) living thing', match: { living: true } },
  nonliving: { words: 'a(n) non-living thing', match: { nonLiving: true } },
  plant: { words: 'a(n) plant', match: { kind: 'plant' } },
  animal: { words: 'a(n) animal', match: { kind: 'animal' } },
};

function findBuilder(what: FindWhat): Builder {
  return (v, contents) => {
    // The real grid: 10 sets of living things × 5 box rooms × 6 colours, the colour fastest.
    const [set, ri, ci] = decodeLastFastest(v, [10, FIND_BOX_ROOMS.length, COLORS.length]);
    livingWorld(contents, v, what, set!);
    const box = `${COLORS[ci!]} box`;
    const room = FIND_BOX_ROOMS[ri!]!;
    contents[room].push({ kind: 'box', name: box, tags: ['box'] });
    const { words, match } = FIND_THING[what];
    return {
      description: `Your task is to find ${words}. First, focus on the thing. Then, move it to the ${box} in the ${room}.`,
      goals: {
        ordered: [
          { type: 'focus', match, failIfWrong: true },
          { type: 'inside', match: { ...match, focused: true }, container: { tag: 'box' } },
        ],
        // ScienceWorld's four: the focused thing carried, a room with an open door, moved anywhere new, the box's room.
        optional: [{ type: 'inside', match: { ...match, focused: true }, container: { kind: 'agent' } }, { type: 'openDoorHere' }, { type: 'movedAway' }, { type: 'inRoom', room }],
      },
      plan: { kind: 'find', what, box, boxRoom: room },
    };
  };
}

// ---- animals --------------------------------------------------------------------------------

/** A newly made animal: at the first stage of its life cycle (or `stage`), named as that stage names it. */
function animal(species: string, stage = 0, extra: Partial<Spawn> = {}): Spawn {
  return { kind: 'animal', species, stage, shown: animalStageName(species, stage), ...extra };
}

// ---- lifespans ------------------------------------------------------------------------------

/** Lifespans in years (ours, unconfirmed): only the order matters — every long-lived animal outlives every medium one, and so on. */
export const LIFESPANS: Readonly<Record<string, number>> = {
  'giant tortoise': 150,
  elephant: 70,
  crocodile: 60,
  parrot: 50,
  'brown bear': 30,
  wolf: 14,
  beaver: 12,
  'common toad': 10,
  rabbit: 9,
  chipmunk: 5,
  hedgehog: 4,
  mouse: 2,
  chameleon: 1.5,
  dragonfly: 0.5,
  ant: 0.3,
  butterfly: 0.1,
  moth: 0.08,
};
/** The real task's three animal lists, in its order. */
const LONG = ['giant tortoise', 'parrot', 'elephant', 'crocodile', 'brown bear'];
const MEDIUM = ['beaver', 'wolf', 'chipmunk', 'common toad', 'rabbit'];
const SHORT = ['hedgehog', 'mouse', 'chameleon', 'dragonfly', 'ant'];

/** The 125 (long, medium, short) combinations, enumerated last-fastest and shuffled once by java.util.Random(0), as the real task does. */
const LIFESPAN_COMBOS: ReadonlyArray<readonly [string, string, string]> = scalaShuffle(
  new JavaRandom(0),
  Array.from({ length: 125 }, (_, i) => {
    const [a, b, c] = decodeLastFastest(i, [5, 5, 5]);
    return [LONG[a!]!, MEDIUM[b!]!, SHORT[c!]!] as const;
  }),
);

function lifespanBuilder(mode: 'longest' | 'shortest' | 'both'): Builder {
  return (v, contents) => {
    const animals = [...LIFESPAN_COMBOS[v]!];
    const byLife = [...animals].sort((x, y) => LIFESPANS[y]! - LIFESPANS[x]!);
    for (const name of animals) {
      const tags = name === byLife[0] ? ['longest'] : name === byLife[2] ? ['shortest'] : [];
      contents.outside.push(animal(name, 0, { tags }));
    }
    const focus = (tag: string) => ({ type: 'focus' as const, match: { tag }, failIfWrong: true });
    const description =
      mode === 'both'
        ? "Your task is to find the animal with the longest life span, then the shortest life span. First, focus on the animal with the longest life span.  Then, focus on the animal with the shortest life span. The animals are in the 'outside' location. "
        : `Your task is to find the animal with the ${mode} life span.  The animals are in the 'outside' location.  Focus on the animal with the ${mode} life span.`;
    const order = mode === 'both' ? [byLife[0]!, byLife[2]!] : [mode === 'longest' ? byLife[0]! : byLife[2]!];
    return {
      description,
      goals: {
        ordered: mode === 'both' ? [focus('longest'), focus('shortest')] : [focus(mode)],
        // ScienceWorld's two: moved anywhere new (done at once if already outside), in the animals' room.
        optional: [
          { type: 'movedAway', unless: 'outside' },
          { type: 'inRoom', room: 'outside' },
        ],
      },
      plan: { kind: 'lifespan', order },
    };
  };
}

// ---- chemistry ------------------------------------------------------------------------------

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

const paintSecondary: Builder = (v, contents) => {
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

const paintTertiary: Builder = (v, contents) => {
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
  paper: { kind: 'block', name: 'paper', material: 'paper' },
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
const chemistryMix: Builder = (v, contents) => {
  const { product, inputs, room } = CHEMISTRY_GRID[v]!;
  for (const input of inputs) {
    const spawn = INGREDIENTS[input];
    if (spawn && !roomHas(contents[room], input)) contents[room].push({ ...spawn, tags: ['reagent'] });
  }
  contents[room].push({ kind: 'recipe', name: 'recipe', shown: TEXT.recipeShown(product), tags: ['recipe'], text: TEXT.recipe(product, [...inputs].sort()) });
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

// ---- biology -----------------------------------------------------------------------------

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
function potGoals(species: string, pots: readonly string[]): Subgoal[] {
  const inPot = (called: string) => pots.map((name): Subgoal => ({ type: 'directlyIn', match: { called }, container: { name, nearAgent: true } }));
  return [...inPot('soil'), ...inPot('water'), ...inPot(`${species} seed`)];
}

/** At least 1…upTo plants of the species at each of the four life stages (blocks of four, stage fastest). */
function stageCountGoals(species: string, upTo: number): Subgoal[] {
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

const growFruit: Builder = (v, contents) => {
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

const growPlant: Builder = (v, contents) => {
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

// ---- genetics -------------------------------------------------------------------------------

/** ScienceWorld's pea traits (GeneticTraitPeas), dominant value first. */
const REAL_PEA_TRAITS: TraitValues = {
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
const mendelKnown: Builder = (v, contents) => {
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
const mendelUnknown: Builder = (v, contents) => {
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

// ---- forces ---------------------------------------------------------------------------------

/** Named surfaces in the real construction order, with ScienceWorld's friction coefficients and names. */
const NAMED_SURFACES: ReadonlyArray<readonly [string, number]> = [
  ['aluminum', 0.45],
  ['brass', 0.5],
  ['bronze', 0.4],
  ['caesium', 0.5],
  ['copper', 0.6],
  ['iron', 0.7],
  ['lead', 0.43],
  ['platinum', 0.8],
  ['steel', 0.6],
  ['tin', 0.3],
  ['titanium', 0.0],
  ['zinc', 0.62],
  ['glass', 0.2],
  ['plastic', 0.1],
  ['ceramic', 0.65],
  ['wood', 0.2],
  ['paper', 0.2],
  ['sandpaper', 0.98],
  ['cloth', 0.3],
  ['rubber', 0.95],
  ['chocolate', 0.32],
  ['soapy water', 0.06],
  ['greenpaint', 0.3],
];
/** The unnamed task's surfaces (unknown material B–J; A is left out by the real task). */
const UNKNOWN_SURFACES: ReadonlyArray<readonly [string, number]> = [
  ['unknown material B', 0.7],
  ['unknown material C', 0.4],
  ['unknown material D', 0.6],
  ['unknown material E', 0.2],
  ['unknown material F', 0.8],
  ['unknown material G', 0.3],
  ['unknown material H', 0.9],
  ['unknown material J', 0.9],
];
/** The angle task's planes (lettered, default surface friction 0.5), in the real order (not shuffled). */
const ANGLED_PLANES: ReadonlyArray<readonly [string, number]> = [
  ['B', 70],
  ['C', 80],
  ['D', 20],
  ['E', 10],
  ['F', 60],
  ['G', 40],
  ['H', 30],
  ['J', 50],
];
const DEFAULT_PLANE_FRICTION = 0.5;
const INCLINE_BLOCKS: ReadonlyArray<Spawn> = [
  { kind: 'block', name: 'wood block', material: 'wood', tags: ['block'] },
  { kind: 'block', name: 'steel block', material: 'steel', tags: ['block'] },
  { kind: 'block', name: 'brick', material: 'ceramic', tags: ['block'] },
];

interface Plane {
  /** The surface or letter the task names it by. */
  label: string;
  /** The name descriptions show (ScienceWorld's getDescriptName). */
  shown: string;
  angle: number;
  friction: number;
}

/**
 * ScienceWorld's inclined-plane grids: plane 1 × plane 2 × block (the last fastest), keeping only
 * pairs whose values differ by more than `threshold` (so never a plane with itself); the kept
 * combinations alternate between the task's two questions (`even`: the 0th, 2nd, … kept).
 */
function planeGrid(planes: Plane[], value: (p: Plane) => number, threshold: number): Array<{ pair: [Plane, Plane]; block: number; even: boolean }> {
  const out: Array<{ pair: [Plane, Plane]; block: number; even: boolean }> = [];
  for (const a of planes)
    for (const b of planes)
      for (let block = 0; block < INCLINE_BLOCKS.length; block++) {
        if (Math.abs(value(a) - value(b)) <= threshold) continue;
        out.push({ pair: [a, b], block, even: out.length % 2 === 0 });
      }
  return out;
}

const shuffled = <T>(seed: number, items: readonly T[]): T[] => scalaShuffle(new JavaRandom(seed), items);
const namedPlanes = (): Plane[] => shuffled(3, NAMED_SURFACES).map(([label, friction]) => ({ label, shown: `inclined plane with a ${label} surface`, angle: 45, friction }));
const unknownPlanes = (): Plane[] => shuffled(4, UNKNOWN_SURFACES).map(([label, friction]) => ({ label, shown: `inclined plane with a ${label} surface`, angle: 45, friction }));
const angledPlanes = (): Plane[] => ANGLED_PLANES.map(([label, angle]) => ({ label, shown: `inclined plane ${label}`, angle, friction: DEFAULT_PLANE_FRICTION }));

/** One plane's trial as ScienceWorld's optional goals from index `at`: the block directly on the plane, then the stopwatch on, off, read. */
function planeTrialGoals(at: number, plane: string): Subgoal[] {
  const watch: Match = { kind: 'stopwatch', nearAgent: true };
  return [
    { type: 'directlyIn', match: { tag: 'block' }, container: { tag: plane, nearAgent: true } },
    { type: 'after', after: [at], goal: { type: 'activated', match: watch } },
    { type: 'after', after: [at + 1], goal: { type: 'deactivated', match: watch } },
    { type: 'after', after: [at + 2], goal: { type: 'examinedSince', match: { kind: 'stopwatch' } } },
  ];
}

function inclineBuild(contents: Contents, pair: [Plane, Plane], block: number, answer: Plane, description: string): VariationBuild {
  contents.workshop.push(
    // Both planes are named "inclined plane"; the real listing shows the second one first (all recordings), so it is created first.
    ...pair.map((p, i): Spawn => ({ kind: 'inclined plane', name: 'inclined plane', shown: p.shown, angle: p.angle, friction: p.friction, tags: [`plane-${i}`] })).reverse(),
    { ...INCLINE_BLOCKS[block]!, tags: ['block'] },
  );
  if (!contents.workshop.some((s) => s.kind === 'stopwatch')) contents.workshop.push({ kind: 'stopwatch', tags: ['stopwatch'] });
  return {
    description,
    goals: {
      // The real task scores one thing: the focus on the right plane (any other plane fails it).
      ordered: [{ type: 'focus', match: { tag: `plane-${pair.indexOf(answer)}` }, failIfWrong: true }],
      // ScienceWorld's ten: moved anywhere new (done at once in the workshop), in the workshop, then
      // per plane: the block on it, the stopwatch on, off, and read (each after the one before).
      optional: [{ type: 'movedAway', unless: 'workshop' }, { type: 'inRoom', room: 'workshop' }, ...planeTrialGoals(2, 'plane-0'), ...planeTrialGoals(6, 'plane-1')],
    },
    plan: { kind: 'incline', answer: answer.shown },
  };
}

let angleGrid: ReturnType<typeof planeGrid> | undefined;
/** Steepest or shallowest (even kept combinations ask for the shallowest); planes named "(steepest, shallowest)". */
const inclineAngle: Builder = (v, contents) => {
  const { pair, block, even } = (angleGrid ??= planeGrid(angledPlanes(), (p) => p.angle, 5))[v]!;
  const [steep, shallow] = pair[0].angle > pair[1].angle ? pair : [pair[1], pair[0]];
  const mode = even ? 'shallowest' : 'steepest';
  // The real task shuffles the two names for the description; all twelve recorded inclined-plane descriptions show them unshuffled.
  const description = `Your task is to determine which of the two inclined planes (${steep.label}, ${shallow.label}) has the ${mode} angle. After completing your experiment, focus on the inclined plane with the ${mode} angle.`;
  return inclineBuild(contents, pair, block, mode === 'steepest' ? steep : shallow, description);
};

const frictionGrids: Partial<Record<'named' | 'unnamed', ReturnType<typeof planeGrid>>> = {};
/** Most or least friction (even kept combinations ask for the most); planes named "(least, most)". */
function inclineFriction(named: boolean): Builder {
  return (v, contents) => {
    const key = named ? 'named' : 'unnamed';
    const { pair, block, even } = (frictionGrids[key] ??= planeGrid(named ? namedPlanes() : unknownPlanes(), (p) => p.friction, 0.05))[v]!;
    const [least, most] = pair[0].friction < pair[1].friction ? pair : [pair[1], pair[0]];
    const mode = even ? 'most' : 'least';
    const description = `Your task is to determine which of the two inclined planes (${least.label}, ${most.label}) has the ${mode} friction. After completing your experiment, focus on the inclined plane with the ${mode} friction.`;
    return inclineBuild(contents, pair, block, mode === 'most' ? most : least, description);
  };
}

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
const lifeStagesAnimal: Builder = (v, contents) => {
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
const lifeStagesPlant: Builder = (v, contents) => {
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

export const BUILDERS: Readonly<Record<string, Builder>> = {
  boil: stateBuilder('boil'),
  melt: stateBuilder('melt'),
  freeze: stateBuilder('freeze'),
  'change-the-state-of-matter-of': stateBuilder('change'),
  'use-thermometer': useThermometer,
  'measure-melting-point-known-substance': meltingPoint,
  'measure-melting-point-unknown-substance': meltingPointUnknown,
  'power-component': powerComponent,
  'power-component-renewable-vs-nonrenewable-energy': powerRenewable,
  'test-conductivity': testConductivity,
  'test-conductivity-of-unknown-substances': testConductivityUnknown,
  'find-living-thing': findBuilder('living'),
  'find-non-living-thing': findBuilder('nonliving'),
  'find-plant': findBuilder('plant'),
  'find-animal': findBuilder('animal'),
  'lifespan-longest-lived': lifespanBuilder('longest'),
  'lifespan-shortest-lived': lifespanBuilder('shortest'),
  'lifespan-longest-lived-then-shortest-lived': lifespanBuilder('both'),
  'chemistry-mix': chemistryMix,
  'chemistry-mix-paint-secondary-color': paintSecondary,
  'chemistry-mix-paint-tertiary-color': paintTertiary,
  'grow-plant': growPlant,
  'grow-fruit': growFruit,
  'identify-life-stages-1': lifeStagesAnimal,
  'inclined-plane-determine-angle': inclineAngle,
  'mendelian-genetics-known-plant': mendelKnown,
  'mendelian-genetics-unknown-plant': mendelUnknown,
  'inclined-plane-friction-named-surfaces': inclineFriction(true),
  'inclined-plane-friction-unnamed-surfaces': inclineFriction(false),
  'identify-life-stages-2': lifeStagesPlant,
};
