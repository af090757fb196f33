// The base world (after ScienceWorld's BuildingMaker/EnvironmentMaker): rooms, doors and what each
// room holds. Tasks add to or remove from this world through their own data (tasks/*).
import type { StateOfMatter } from './materials.js';
import type { KindName } from './kinds.js';
import type { HouseDraws } from './house.js';

export const ROOMS = ['kitchen', 'bathroom', 'workshop', 'art studio', 'greenhouse', 'hallway', 'bedroom', 'living room', 'outside', 'foundry'] as const;
export type RoomName = (typeof ROOMS)[number];

/** Door pairs; every door is closed at the start unless the openDoors simplification is on. */
export const DOORS: ReadonlyArray<readonly [RoomName, RoomName]> = [
  ['kitchen', 'hallway'],
  ['living room', 'hallway'],
  ['bedroom', 'hallway'],
  ['bathroom', 'kitchen'],
  ['workshop', 'hallway'],
  ['greenhouse', 'hallway'],
  ['art studio', 'hallway'],
  ['kitchen', 'outside'],
  ['greenhouse', 'outside'],
  ['foundry', 'outside'],
];

/** One object to create: kind, optional display name/material, and what it holds. */
export interface Spawn {
  kind: KindName;
  /** Display name; defaults to the kind (substances default to their material's state name). */
  name?: string;
  /**
   * A substance's name until its state first changes (ScienceWorld names a new "mercury" by its
   * class and renames it by state, "solid mercury", only when it changes state).
   */
  bornName?: string;
  material?: string;
  open?: boolean;
  on?: boolean;
  /** A device a task disabled (ScienceWorld's TaskDisable): present, but it cannot be switched on. */
  broken?: boolean;
  temperature?: number;
  contents?: Spawn[];
  /** A substance's state at creation when it differs from its material's usual one (acetic acid made at 10 °C is solid). */
  state?: StateOfMatter;
  /** Gives any object two terminals (the conductivity tasks wire whatever they test). */
  connectable?: boolean;
  /** Labels tasks use to find their objects (never shown). */
  tags?: string[];
  species?: string;
  stage?: number;
  /** How descriptions show the object when that differs from its name ("red apple" for an apple); kinds marked `verbatim` show it as the whole description. */
  shown?: string;
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
  /** ScienceWorld's phrasing "with a tall height" (value + this suffix) instead of "with tall plant height". */
  suffix?: string;
  /** The plant's whole genotype, every trait of its kind (ScienceWorld's chromosome pairs): what its seed, grown plant and flower show (world/plant-traits.ts). */
  traits?: readonly GeneTrait[];
}

/** One trait of a genotype: its values (dominant first) and the plant's two alleles (true = dominant). */
export interface GeneTrait {
  trait: string;
  values: readonly [string, string];
  alleles: readonly [boolean, boolean];
}

export const sub = (material: string, extra: Partial<Spawn> = {}): Spawn => ({ kind: 'substance', material, ...extra });
/** A desk: ScienceWorld's desk always holds its own drawer, created with it. */
export const desk = (contents: Spawn[] = []): Spawn => ({ kind: 'desk', contents: [{ kind: 'drawer' }, ...contents] });
const food = (name: string, shown?: string): Spawn => ({ kind: 'food', name, ...(shown ? { shown } : {}) });

/** Contents of each room in the base world, after the house's random draws (house.ts). */
export function baseWorld(house: HouseDraws): Record<RoomName, Spawn[]> {
  const picture = (room: keyof HouseDraws['pictures']): Spawn => ({ kind: 'picture', name: house.pictures[room].name });
  const shelf = (room: keyof HouseDraws['shelves']): Spawn[] => {
    const books = house.shelves[room];
    if (!books) return [];
    const contents = books.map((b): Spawn => ({ kind: 'book', name: `book (${b.title})`, shown: `A book (${b.title}) titled ${b.title} by ${b.author}`, text: `${b.title} by ${b.author}` }));
    return [{ kind: 'book shelf', contents }];
  };
  const paintCup = (color: string): Spawn => ({ kind: 'wood cup', contents: [sub('paint', { name: `${color} paint` })] });
  const table: Spawn = house.livingRoomTable === 'desk' ? desk() : { kind: house.livingRoomTable === 'steel table' ? 'steel table' : 'table', name: 'table' };
  const shovel = (room: HouseDraws['shovelRoom']): Spawn[] => (house.shovelRoom === room ? [{ kind: 'shovel' }] : []);
  return {
    kitchen: [
      { kind: 'sink', tags: ['sink'] },
      { kind: 'stove', tags: ['stove'] },
      { kind: 'fridge', contents: [{ kind: 'wood cup', contents: [sub('orange juice')] }] },
      { kind: 'freezer' },
      { kind: 'oven' },
      // A cupboard is built with a drawer inside (as the recordings list it).
      { kind: 'cupboard', contents: [{ kind: 'drawer' }, { kind: 'metal pot' }, { kind: 'tin cup' }, { kind: 'ceramic cup' }] },
      { kind: 'counter', contents: [{ kind: 'bowl', contents: [food('apple', 'red apple'), food('banana'), food('orange'), food('potato')] }, { kind: 'drawer' }] },
      { kind: 'thermometer', temperature: 10 },
      picture('kitchen'),
      { kind: 'table', contents: [{ kind: 'glass cup' }] },
      { kind: 'chair' },
      { kind: 'lighter' },
      { kind: 'glass jar', contents: [sub('sodium chloride')] },
      sub('soap'),
      { kind: 'stopwatch' },
    ],
    'living room': [{ kind: 'couch', contents: [{ kind: 'pillow', name: 'white pillow' }] }, { kind: 'chair' }, table, picture('living room'), ...shelf('living room')],
    bedroom: [
      { kind: 'bed', contents: [{ kind: 'mattress', contents: [{ kind: 'pillow', name: 'white pillow' }] }] },
      { kind: 'table', name: 'table' },
      { kind: 'closet' },
      picture('bedroom'),
      ...shelf('bedroom'),
    ],
    bathroom: [{ kind: 'sink' }, { kind: 'toilet', contents: [{ kind: 'drain', open: true }, sub('water')] }, { kind: 'bathtub' }, { kind: 'glass cup' }, picture('bathroom')],
    workshop: [
      {
        kind: 'table',
        tags: ['workbench'],
        contents: [
          ...house.bulbs.map((c): Spawn => ({ kind: 'light bulb', name: `${c} light bulb` })),
          ...house.wires.map((c): Spawn => ({ kind: 'wire', name: `${c} wire` })),
          { kind: 'switch' },
          { kind: 'battery' },
        ],
      },
      { kind: 'ultra low temperature freezer' },
    ],
    greenhouse: [
      { kind: 'jug' },
      { kind: 'bee hive', contents: [0, 1, 2, 3, 4].map((i): Spawn => ({ kind: 'animal', name: `bee ${i}`, species: 'bee', stage: 2, shown: 'adult bee' })) },
      { kind: 'sink' },
      ...shovel('greenhouse'),
    ],
    'art studio': [
      { kind: 'table', contents: [house.mixer === 'wood bowl' ? { kind: 'wood bowl', name: 'bowl' } : { kind: house.mixer }] },
      paintCup('red'),
      paintCup('blue'),
      paintCup('yellow'),
      { kind: 'cupboard', name: 'large cupboard', contents: [{ kind: 'drawer' }, paintCup('red'), paintCup('blue'), paintCup('yellow')] },
    ],
    hallway: [picture('hallway')],
    // The fountain fills itself with water on the first tick (empty in the very first observation).
    outside: [{ kind: 'fire pit' }, sub('wood'), { kind: 'axe' }, { kind: 'fountain' }, { kind: 'ground' }, ...shovel('outside')],
    foundry: [{ kind: 'blast furnace' }, { kind: 'sink' }, { kind: 'steel table', name: 'table' }],
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
