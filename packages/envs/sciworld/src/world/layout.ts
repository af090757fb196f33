// The base world (after ScienceWorld's BuildingMaker/EnvironmentMaker): rooms, doors and what each
// room holds. Tasks add to or remove from this world through their own data (tasks/*).
import type { KindName } from './kinds.js';
import type { Rng } from '@diffworld/env-core';

export const ROOMS = ['kitchen', 'bathroom', 'workshop', 'art studio', 'greenhouse', 'hallway', 'bedroom', 'living room', 'outside', 'foundry'] as const;
export type RoomName = (typeof ROOMS)[number];

/** Door pairs; every door is closed at the start unless the openDoors simplification is on. */
export const DOORS: ReadonlyArray<readonly [RoomName, RoomName]> = [
  ['kitchen', 'hallway'], ['living room', 'hallway'], ['bedroom', 'hallway'], ['bathroom', 'kitchen'],
  ['workshop', 'hallway'], ['greenhouse', 'hallway'], ['art studio', 'hallway'],
  ['kitchen', 'outside'], ['greenhouse', 'outside'], ['foundry', 'outside'],
];

/** One object to create: kind, optional display name/material, and what it holds. */
export interface Spawn {
  kind: KindName;
  /** Display name; defaults to the kind (substances default to their material's state name). */
  name?: string;
  material?: string;
  open?: boolean;
  on?: boolean;
  temperature?: number;
  contents?: Spawn[];
  /** Labels tasks use to find their objects (never shown). */
  tags?: string[];
  species?: string;
  stage?: number;
  /** What `read` shows (recipes, books). */
  text?: string;
  /** Plants with one Mendelian trait: the trait and the two alleles (true = the first value). */
  genes?: Genes;
  /** Inclined planes: angle in degrees and the surface's friction coefficient. */
  angle?: number;
  friction?: number;
}

 /** One Mendelian trait of a plant: two values, which one is dominant, and the plant's two alleles. */
export interface Genes {
  trait: string;
  /** [first value, second value], e.g. ["round", "wrinkled"]. */
  values: readonly [string, string];
  /** Whether the first value is dominant. */
  firstDominant: boolean;
  /** The plant's alleles: true = first value. */
  alleles: readonly [boolean, boolean];
}

export const sub = (material: string, extra: Partial<Spawn> = {}): Spawn => ({ kind: 'substance', material, ...extra });
const food = (name: string): Spawn => ({ kind: 'food', name });

const BULB_COLORS = ['red', 'green', 'blue', 'yellow', 'orange', 'violet'];
const WIRE_COLORS = ['red', 'green', 'blue', 'yellow', 'orange', 'black'];

/** Contents of each room in the base world; random choices come from the world's rng. */
export function baseWorld(rng: Rng): Record<RoomName, Spawn[]> {
  const bulbs = rng.sample(BULB_COLORS, 3);
  const wires = rng.sample(WIRE_COLORS, 3);
  const mixer = rng.pick(['glass cup', 'wood bowl', 'jug'] as const);
  const shovelOutside = rng.bool();
  const bedroomShelf = rng.bool();
  const livingShelf = rng.bool();
  const livingTable = rng.pick(['table', 'desk'] as const);
  const paintCup = (color: string): Spawn => ({ kind: 'wood cup', contents: [sub('paint', { name: `${color} paint` })] });
  return {
    kitchen: [
      { kind: 'sink', tags: ['sink'] },
      { kind: 'stove', tags: ['stove'] },
      { kind: 'fridge', contents: [{ kind: 'wood cup', contents: [sub('orange juice')] }] },
      { kind: 'freezer' },
      { kind: 'oven' },
      { kind: 'cupboard', contents: [{ kind: 'metal pot' }, { kind: 'tin cup' }, { kind: 'ceramic cup' }] },
      { kind: 'counter', contents: [{ kind: 'bowl', contents: [food('apple'), food('banana'), food('orange'), food('potato')] }, { kind: 'drawer' }] },
      { kind: 'table', contents: [{ kind: 'glass cup' }] },
      { kind: 'chair' },
      { kind: 'thermometer' },
      { kind: 'picture' },
      { kind: 'lighter' },
      { kind: 'glass jar', contents: [sub('sodium chloride')] },
      sub('soap'),
      { kind: 'stopwatch' },
    ],
    bathroom: [{ kind: 'sink' }, { kind: 'toilet', contents: [sub('water')] }, { kind: 'bathtub' }, { kind: 'glass cup' }, { kind: 'picture' }],
    bedroom: [{ kind: 'bed' }, { kind: 'table', name: 'table' }, { kind: 'closet' }, { kind: 'picture' }, ...(bedroomShelf ? [{ kind: 'bookshelf' } as Spawn] : [])],
    'living room': [{ kind: 'couch' }, { kind: 'chair' }, { kind: livingTable }, { kind: 'picture' }, ...(livingShelf ? [{ kind: 'bookshelf' } as Spawn] : [])],
    workshop: [
      {
        kind: 'table',
        tags: ['workbench'],
        contents: [
          ...bulbs.map((c): Spawn => ({ kind: 'light bulb', name: `${c} light bulb` })),
          ...wires.map((c): Spawn => ({ kind: 'wire', name: `${c} wire` })),
          { kind: 'switch' },
          { kind: 'battery' },
        ],
      },
      { kind: 'ultra low temperature freezer' },
    ],
    greenhouse: [
      { kind: 'jug' },
      { kind: 'beehive', open: true, contents: [1, 2, 3, 4, 5].map((): Spawn => ({ kind: 'animal', name: 'bee', species: 'bee', stage: 2 })) },
      { kind: 'sink' },
      ...(shovelOutside ? [] : [{ kind: 'shovel' } as Spawn]),
    ],
    'art studio': [
      { kind: 'table', contents: [{ kind: mixer }, paintCup('red'), paintCup('blue'), paintCup('yellow')] },
      { kind: 'cupboard', contents: [paintCup('red'), paintCup('blue'), paintCup('yellow')] },
    ],
    hallway: [{ kind: 'picture' }],
    outside: [{ kind: 'fire pit' }, sub('wood'), { kind: 'axe' }, { kind: 'fountain', contents: [sub('water')] }, { kind: 'ground' }, ...(shovelOutside ? [{ kind: 'shovel' } as Spawn] : [])],
    foundry: [{ kind: 'blast furnace' }, { kind: 'sink' }, { kind: 'steel table' }],
  };
}

/** Room adjacency for harness prompts (derived from DOORS). */
export function adjacency(): Record<RoomName, RoomName[]> {
  const out = Object.fromEntries(ROOMS.map((r) => [r, [] as RoomName[]])) as Record<RoomName, RoomName[]>;
  for (const [a, b] of DOORS) {
    out[a].push(b);
    out[b].push(a);
  }
  return out;
}
