// Object kinds: what each kind of thing can do. The engine never names a kind; it reads these flags.

export type Category = 'room' | 'door' | 'agent' | 'substance' | 'container' | 'furniture' | 'device' | 'item' | 'living' | 'electrical' | 'terminal' | 'box';

export interface ElectricalRole {
  /** source: drives current anode→cathode; load: powered when current flows; wire/switch: conduct. */
  role: 'source' | 'load' | 'wire' | 'switch';
  polarized: boolean;
  /** Sources: whether the energy is renewable (power-component-renewable-vs-nonrenewable-energy). */
  renewable?: boolean;
}

export interface KindDef {
  category: Category;
  /** How contents are listed: "In the X is:" vs "On the X is:"; cups list "(containing …)". */
  holds?: 'in' | 'on' | 'containing';
  openable?: boolean;
  activatable?: boolean;
  /** Temperature the device drives its contents towards while on. */
  heats?: number;
  /** Temperature a cooling appliance drives its contents towards while on (ScienceWorld's coolers start on). */
  cools?: number;
  /** On when created (ScienceWorld's fridges and freezers). */
  startsOn?: boolean;
  /** Mentions being on or off only when off ("a fridge, which is turned off."), as ScienceWorld's coolers. */
  mentionsOnlyOff?: boolean;
  /** While on, fills containers inside it with water (sinks, bathtubs). */
  waterSource?: boolean;
  movable: boolean;
  thermometer?: boolean;
  edible?: boolean;
  electrical?: ElectricalRole;
  /** Material of the object itself (conductivity), when it has one. */
  material?: string;
  /**
   * The material heat exchange reads when it differs from `material` (ScienceWorld's propMaterial:
   * furniture is wood, answer boxes ceramic), or false for things ScienceWorld gives none (appliances,
   * bulbs, generators), which take no part in contact heat exchange.
   */
  heat?: string | false;
  /** Devices described as "which is turned on/off". */
  showsOnOff?: boolean;
  /** Items that can be connected into a circuit by their two terminals even though not components. */
  connectable?: boolean;
  /** Counts ticks while activated (stopwatch). */
  timer?: boolean;
  /** Things put on it slide down (inclined planes; angle and friction per object). */
  incline?: boolean;
  /** Described by its `shown` text alone (books: "A book (Beowulf) titled Beowulf by Beowulf poet"). */
  verbatim?: boolean;
  /**
   * The ambiguity prompt names it by its shown text ("adult bee", ScienceWorld's descriptive name for
   * animals); other things are named there by their plain name ("apple", "unknown E seed"), not by
   * what their listing shows ("red apple", "round brown unknown E seed").
   */
  shownInPrompts?: boolean;
  /** Listings show only "a NAME"; `look at` adds what is in it or that it is closed. */
  listedByName?: boolean;
  /** Described with "the" and nothing else ("the ground"). */
  definite?: boolean;
  /** Refills itself with this material on every tick when it holds none (fountains). */
  refills?: string;
  /** A liquid drain: described "A drain, which is open/closed"; sealed again on every tick. */
  drain?: boolean;
}

const container = (material: string): KindDef => ({ category: 'container', holds: 'containing', movable: true, material });
const cupboardLike: KindDef = { category: 'furniture', holds: 'in', openable: true, movable: false, heat: 'wood' };
const surface: KindDef = { category: 'furniture', holds: 'on', movable: false, heat: 'wood' };
const conductor = (material: string): KindDef => ({ category: 'item', movable: true, material, connectable: true });

export const KINDS = {
  room: { category: 'room', holds: 'in', movable: false },
  door: { category: 'door', movable: false, openable: true },
  agent: { category: 'agent', movable: false },
  substance: { category: 'substance', movable: true },
  // containers
  'metal pot': container('steel'),
  'tin cup': container('tin'),
  'ceramic cup': container('ceramic'),
  'glass cup': container('glass'),
  'plastic cup': container('plastic'),
  'paper cup': container('paper'),
  'wood cup': container('wood'),
  'glass jar': container('glass'),
  'seed jar': container('glass'),
  jug: container('plastic'),
  'wood bowl': container('wood'),
  bowl: container('wood'),
  'flower pot': container('ceramic'),
  /** identify-life-stages-2's pots: plants in them keep their stage (they are there to be looked at). */
  'self watering flower pot': container('ceramic'),
  box: { category: 'box', holds: 'containing', movable: false, material: 'cloth', heat: 'ceramic' },
  // furniture
  counter: surface,
  table: surface,
  'steel table': { ...surface, material: 'steel', heat: 'steel' },
  desk: surface,
  bed: surface,
  couch: { ...surface, heat: 'cloth' },
  chair: surface,
  mattress: { ...surface, heat: 'cloth' },
  'book shelf': { category: 'furniture', holds: 'containing', movable: false, material: 'wood' },
  'fire pit': { category: 'furniture', holds: 'containing', movable: false, heat: 'ceramic' },
  ground: { category: 'furniture', holds: 'on', movable: false, definite: true, heat: 'soil' },
  'bee hive': { category: 'furniture', holds: 'in', movable: false, openable: true, heat: 'wood' },
  cupboard: cupboardLike,
  /** Listed by its name alone, open or closed (ScienceWorld's Drawer); `look at` shows its contents. */
  drawer: { ...cupboardLike, listedByName: true },
  closet: cupboardLike,
  // appliances
  sink: { category: 'device', holds: 'in', activatable: true, waterSource: true, movable: false, showsOnOff: true, heat: 'steel' },
  bathtub: { category: 'device', holds: 'in', activatable: true, waterSource: true, movable: false, showsOnOff: true, heat: 'ceramic' },
  toilet: { category: 'device', holds: 'in', movable: false, heat: 'steel' },
  stove: { category: 'device', holds: 'on', activatable: true, heats: 260, movable: false, showsOnOff: true },
  oven: { category: 'device', holds: 'in', openable: true, activatable: true, heats: 540, movable: false, showsOnOff: true },
  'blast furnace': { category: 'device', holds: 'in', openable: true, activatable: true, heats: 3000, movable: false, showsOnOff: true },
  fridge: { category: 'device', holds: 'in', openable: true, activatable: true, startsOn: true, mentionsOnlyOff: true, cools: 2, movable: false },
  freezer: { category: 'device', holds: 'in', openable: true, activatable: true, startsOn: true, mentionsOnlyOff: true, cools: -18, movable: false },
  'ultra low temperature freezer': { category: 'device', holds: 'in', openable: true, activatable: true, startsOn: true, mentionsOnlyOff: true, cools: -86, movable: false },
  fountain: { category: 'device', holds: 'containing', movable: false, refills: 'water', heat: 'ceramic' },
  drain: { category: 'item', movable: false, drain: true },
  // tools and loose items
  thermometer: { category: 'item', movable: true, thermometer: true, material: 'glass' },
  lighter: { category: 'item', movable: true, material: 'plastic' },
  stopwatch: { category: 'item', movable: true, material: 'plastic', activatable: true, timer: true, heat: false },
  block: { category: 'item', movable: true, material: 'steel' },
  'inclined plane': { category: 'furniture', holds: 'on', movable: false, incline: true, heat: 'steel' },
  picture: { category: 'item', movable: true, material: 'paper' },
  /** Shown verbatim ("A recipe titled instructions to make …"), named "recipe" in messages. */
  recipe: { category: 'item', movable: true, material: 'paper', verbatim: true },
  painting: { category: 'item', movable: true, material: 'paper' },
  book: { category: 'item', movable: true, material: 'paper', verbatim: true },
  pillow: { category: 'item', movable: true, material: 'cloth' },
  shovel: { category: 'item', movable: true, material: 'steel' },
  /** What digging the ground with a shovel leaves behind. */
  hole: { category: 'item', movable: false, material: 'soil' },
  axe: { category: 'item', movable: true, material: 'steel' },
  food: { category: 'item', movable: true, edible: true, material: 'plant matter' },
  /** What a reproducing plant grows (ScienceWorld's Flower: "On the apple tree you see: a flower."). */
  flower: { category: 'item', movable: true, material: 'plant matter' },
  // electrical components
  battery: { category: 'electrical', movable: true, electrical: { role: 'source', polarized: true, renewable: false } },
  'solar panel': { category: 'electrical', movable: true, electrical: { role: 'source', polarized: true, renewable: true }, material: 'glass', heat: false },
  'wind generator': { category: 'electrical', movable: true, electrical: { role: 'source', polarized: true, renewable: true }, material: 'steel', heat: false },
  'gas generator': { category: 'electrical', movable: true, electrical: { role: 'source', polarized: true, renewable: false }, material: 'steel', heat: false },
  'nuclear generator': { category: 'electrical', movable: true, electrical: { role: 'source', polarized: true, renewable: false }, material: 'steel', heat: false },
  'light bulb': { category: 'electrical', movable: true, electrical: { role: 'load', polarized: true }, material: 'glass', heat: false },
  'electric motor': { category: 'electrical', movable: true, electrical: { role: 'load', polarized: true }, material: 'steel', heat: false },
  'electric buzzer': { category: 'electrical', movable: true, electrical: { role: 'load', polarized: true }, material: 'plastic', heat: false },
  wire: { category: 'electrical', movable: true, electrical: { role: 'wire', polarized: false }, material: 'copper' },
  switch: { category: 'electrical', movable: true, activatable: true, electrical: { role: 'switch', polarized: true }, material: 'plastic', heat: false },
  terminal: { category: 'terminal', movable: false },
  // objects for conductivity tests (connectable by their two terminals)
  'conductor item': conductor('steel'),
  /** Kitchen things described "A metal fork" (ScienceWorld's capitalised description), material per object. */
  'kitchen item': { category: 'item', movable: true, material: 'steel', verbatim: true },
  // living things
  animal: { category: 'living', movable: true, shownInPrompts: true },
  /** Plants at every life stage, seeds included (named "<species> seed" at stage 0). */
  plant: { category: 'living', movable: true, material: 'plant matter' },
} as const satisfies Record<string, KindDef>;

export type KindName = keyof typeof KINDS;

export function kindDef(kind: string): KindDef {
  const k = (KINDS as Record<string, KindDef>)[kind];
  if (!k) throw new Error(`sciworld: unknown object kind '${kind}' (add it to world/kinds.ts)`);
  return k;
}
