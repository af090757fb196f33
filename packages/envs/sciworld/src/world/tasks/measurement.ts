// The thermometer tasks: use-thermometer and both measure-melting-point tasks, on the real grids of
// TaskUseInstrumentThermometer, 2 and 3 (object × temperature point × boxes, subsampled within the splits).
import { sub, type RoomName, type Spawn } from '../layout.js';
import { material as materialOf, nameInState, THERMAL_UNKNOWN_CREATED_C, THERMAL_UNKNOWN_MELTING_POINTS } from '../materials.js';
import type { Match, Subgoal } from '../../engine/goals.js';
import { JavaRandom, scalaShuffle } from '../../engine/java-random.js';
import { cupAt, thermometerTaskTemperature } from './task-draws.js';
import { HEATER_NAMES, focusedIn, heaterOrFireGoals } from './heating-goals.js';
import { ANSWER_BOX_COLORS, addBoxes, inAppliance } from './spawns.js';
import { target, type Builder, type Contents, type VariationBuild } from './variation.js';

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

export const useThermometer: Builder = (v, contents) => {
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

export const meltingPoint: Builder = (v, contents) => meltingPointOf((knownGrid ??= meltGrid(KNOWN_MELT, 0.5)), v, contents);
export const meltingPointUnknown: Builder = (v, contents) => meltingPointOf((unknownGrid ??= meltGrid(UNKNOWN_MELT, 0.02)), v, contents);

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
