// Object kinds: what each kind of thing can do. The engine never names a kind; it reads these flags.

export type Category = 'room' | 'door' | 'agent' | 'substance' | 'container' | 'furniture' | 'device' | 'item' | 'living' | 'electrical' | 'terminal' | 'box';

export interface ElectricalRole {
  /** source: drives current anode→cathode; load: powered when current flows; wire/switch: conduct. */
  role: 'source' | 'load' | 'wire' | 'switch';
  polarized: boolean;
  /** Sources: whether the energy is renewable (power-component-renewable-vs-nonrenewable-energy). */
  renewable?: boolean;
  /**
   * Sources that drive current only when outdoors (ScienceWorld's RenewableOutdoorGenerator: on
   * while in the outside location, directly or through open containers, off anywhere else).
   */
  outdoors?: boolean;
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
  /**
   * The generic words the real class answers to besides its name (its getReferents: "cup" and
   * "glass cup" for a glass cup, "light" for a bulb); absent = none.
   */
  referents?: readonly string[];
  /** Also answers to "<referent> containing <what is in it>" (ScienceWorld's mkContentReferences: cups, pots, jars, shelves). */
  contentReferents?: boolean;
  /**
   * ScienceWorld's propMoveable false: the agent, rooms, doors, terminals and the appliances
   * (sinks, baths, toilets, stoves, ovens, furnaces, fridges, freezers). Everything else can be
   * moved, furniture included; `movable` is our planner's and goals' narrower notion.
   */
  anchored?: boolean;
}

const container = (material: string): KindDef => ({ category: 'container', holds: 'containing', movable: true, material });
const cupboardLike: KindDef = { category: 'furniture', holds: 'in', openable: true, movable: false, heat: 'wood' };
const surface: KindDef = { category: 'furniture', holds: 'on', movable: false, heat: 'wood' };
const conductor = (material: string): KindDef => ({ category: 'item', movable: true, material, connectable: true });

export const KINDS = {
  room: { category: 'room', holds: 'in', movable: false, anchored: true },
  door: { category: 'door', movable: false, openable: true, anchored: true },
  agent: { category: 'agent', movable: false, referents: ['agent', 'self'], anchored: true },
  substance: { category: 'substance', movable: true },
  // containers
  'metal pot': { ...container('steel'), referents: ['pot', 'metal pot'], contentReferents: true },
  'tin cup': { ...container('tin'), referents: ['cup', 'tin cup'], contentReferents: true },
  'ceramic cup': { ...container('ceramic'), referents: ['cup', 'ceramic cup'], contentReferents: true },
  'glass cup': { ...container('glass'), referents: ['cup', 'glass cup'], contentReferents: true },
  'plastic cup': { ...container('plastic'), referents: ['cup', 'plastic cup'], contentReferents: true },
  'paper cup': { ...container('paper'), referents: ['cup', 'paper cup'], contentReferents: true },
  'wood cup': { ...container('wood'), referents: ['cup', 'wood cup'], contentReferents: true },
  /** ScienceWorld's GlassJar: a closable container, created closed (its contents listed but out of reach until opened). */
  'glass jar': { ...container('glass'), openable: true, referents: ['jar', 'glass jar'], contentReferents: true },
  /** The grow and genetics tasks' seed jar: ScienceWorld's CeramicCup renamed (so also a "cup", and never closed). */
  'seed jar': { ...container('ceramic'), referents: ['cup', 'ceramic cup'], contentReferents: true },
  jug: { ...container('plastic'), referents: ['jug'], contentReferents: true },
  'wood bowl': { ...container('wood'), referents: ['bowl', 'wood bowl'], contentReferents: true },
  bowl: { ...container('wood'), referents: ['bowl', 'wood bowl'], contentReferents: true },
  'flower pot': { ...container('ceramic'), referents: ['pot', 'flower pot'], contentReferents: true },
  /** identify-life-stages-2's pots: plants in them keep their stage (they are there to be looked at). */
  'self watering flower pot': { ...container('ceramic'), referents: ['pot', 'flower pot'], contentReferents: true },
  box: { category: 'box', holds: 'containing', movable: false, material: 'cloth', heat: 'ceramic' },
  // furniture
  counter: { ...surface, referents: ['counter', 'wood counter'] },
  table: { ...surface, referents: ['table', 'wood table'] },
  'steel table': { ...surface, material: 'steel', heat: 'steel', referents: ['table', 'steel table'] },
  desk: { ...surface, referents: ['desk', 'wood desk'] },
  bed: { ...surface, referents: ['sittable', 'wood sittable'] },
  couch: { ...surface, heat: 'cloth', referents: ['sittable'] },
  chair: { ...surface, referents: ['sittable', 'wood sittable'] },
  mattress: { ...surface, heat: 'cloth', referents: ['sittable'] },
  'book shelf': { category: 'furniture', holds: 'containing', movable: false, material: 'wood', referents: ['shelf', 'book shelf'], contentReferents: true },
  'fire pit': { category: 'furniture', holds: 'containing', movable: false, heat: 'ceramic', referents: ['fire pit'] },
  ground: { category: 'furniture', holds: 'on', movable: false, definite: true, heat: 'soil', referents: ['ground'] },
  'bee hive': { category: 'furniture', holds: 'in', movable: false, openable: true, heat: 'wood', referents: ['bee hive', 'hive', 'beehive'] },
  cupboard: { ...cupboardLike, referents: ['cupboard', 'wood cupboard'] },
  /** Listed by its name alone, open or closed (ScienceWorld's Drawer); `look at` shows its contents. */
  drawer: { ...cupboardLike, listedByName: true, referents: ['drawer', 'wood table'] },
  closet: { ...cupboardLike, referents: ['closet', 'wood closet'] },
  // appliances
  sink: { category: 'device', holds: 'in', activatable: true, waterSource: true, movable: false, showsOnOff: true, heat: 'steel', anchored: true, referents: ['sink'] },
  bathtub: { category: 'device', holds: 'in', activatable: true, waterSource: true, movable: false, showsOnOff: true, heat: 'ceramic', anchored: true, referents: ['bathtub'] },
  toilet: { category: 'device', holds: 'in', movable: false, heat: 'steel', anchored: true, referents: ['toilet'] },
  stove: { category: 'device', holds: 'on', activatable: true, heats: 260, movable: false, showsOnOff: true, anchored: true, referents: ['stove'] },
  oven: { category: 'device', holds: 'in', openable: true, activatable: true, heats: 540, movable: false, showsOnOff: true, anchored: true, referents: ['oven'] },
  'blast furnace': { category: 'device', holds: 'in', openable: true, activatable: true, heats: 3000, movable: false, showsOnOff: true, anchored: true, referents: ['furnace'] },
  fridge: { category: 'device', holds: 'in', openable: true, activatable: true, startsOn: true, mentionsOnlyOff: true, cools: 2, movable: false, anchored: true, referents: ['fridge'] },
  freezer: { category: 'device', holds: 'in', openable: true, activatable: true, startsOn: true, mentionsOnlyOff: true, cools: -18, movable: false, anchored: true, referents: ['freezer'] },
  'ultra low temperature freezer': {
    category: 'device',
    holds: 'in',
    openable: true,
    activatable: true,
    startsOn: true,
    mentionsOnlyOff: true,
    cools: -86,
    movable: false,
    anchored: true,
    referents: ['freezer'],
  },
  fountain: { category: 'device', holds: 'containing', movable: false, refills: 'water', heat: 'ceramic', referents: ['fountain'] },
  /** ScienceWorld's drain is a Portal (never moved). */
  drain: { category: 'item', movable: false, drain: true, anchored: true },
  // tools and loose items
  thermometer: { category: 'item', movable: true, thermometer: true, material: 'glass', referents: ['thermometer'] },
  lighter: { category: 'item', movable: true, material: 'plastic', referents: ['lighter'] },
  stopwatch: { category: 'item', movable: true, material: 'plastic', activatable: true, timer: true, heat: false, referents: ['stopwatch', 'watch', 'timer'] },
  block: { category: 'item', movable: true, material: 'steel', referents: ['block'] },
  'inclined plane': { category: 'furniture', holds: 'on', movable: false, incline: true, heat: 'steel', referents: ['inclined plane', 'plane'] },
  picture: { category: 'item', movable: true, material: 'paper' },
  /** Shown verbatim ("A recipe titled instructions to make …"), named "recipe" in messages. */
  recipe: { category: 'item', movable: true, material: 'paper', verbatim: true },
  painting: { category: 'item', movable: true, material: 'paper' },
  /** ScienceWorld's Paper and ColoredPaper documents: shown verbatim ("A blank paper", "A red paper"), named "paper" in messages. */
  paper: { category: 'item', movable: true, material: 'paper', verbatim: true },
  book: { category: 'item', movable: true, material: 'paper', verbatim: true, referents: ['book'] },
  pillow: { category: 'item', movable: true, material: 'cloth' },
  shovel: { category: 'item', movable: true, material: 'steel', referents: ['shovel'] },
  /** What digging the ground with a shovel leaves behind. */
  hole: { category: 'item', movable: false, material: 'soil', referents: ['hole'] },
  axe: { category: 'item', movable: true, material: 'steel', referents: ['axe'] },
  food: { category: 'item', movable: true, edible: true, material: 'plant matter' },
  /** What a reproducing plant grows (ScienceWorld's Flower: "On the apple tree you see: a flower."). */
  flower: { category: 'item', movable: true, material: 'plant matter', referents: ['flower'] },
  // electrical components
  battery: { category: 'electrical', movable: true, electrical: { role: 'source', polarized: true, renewable: false }, referents: ['generator'] },
  'solar panel': { category: 'electrical', movable: true, electrical: { role: 'source', polarized: true, renewable: true, outdoors: true }, material: 'glass', heat: false, referents: ['generator'] },
  'wind generator': {
    category: 'electrical',
    movable: true,
    electrical: { role: 'source', polarized: true, renewable: true, outdoors: true },
    material: 'steel',
    heat: false,
    referents: ['generator'],
  },
  /** ScienceWorld's GasGenerator and NuclearGenerator: activatable, created off; they drive current only while on. */
  'gas generator': {
    category: 'electrical',
    movable: true,
    activatable: true,
    electrical: { role: 'source', polarized: true, renewable: false },
    material: 'steel',
    heat: false,
    referents: ['generator'],
  },
  'nuclear generator': {
    category: 'electrical',
    movable: true,
    activatable: true,
    electrical: { role: 'source', polarized: true, renewable: false },
    material: 'steel',
    heat: false,
    referents: ['generator'],
  },
  'light bulb': { category: 'electrical', movable: true, electrical: { role: 'load', polarized: true }, material: 'glass', heat: false, referents: ['light', 'light bulb'] },
  'electric motor': { category: 'electrical', movable: true, electrical: { role: 'load', polarized: true }, material: 'steel', heat: false, referents: ['motor', 'electric motor'] },
  'electric buzzer': { category: 'electrical', movable: true, electrical: { role: 'load', polarized: true }, material: 'plastic', heat: false, referents: ['buzzer', 'electric buzzer'] },
  wire: { category: 'electrical', movable: true, electrical: { role: 'wire', polarized: false }, material: 'copper', referents: ['component'] },
  switch: { category: 'electrical', movable: true, activatable: true, electrical: { role: 'switch', polarized: true }, material: 'plastic', heat: false, referents: ['component'] },
  terminal: { category: 'terminal', movable: false, anchored: true },
  // objects for conductivity tests (connectable by their two terminals)
  'conductor item': conductor('steel'),
  /** Kitchen things described "A metal fork" (ScienceWorld's capitalised description), material per object. */
  'kitchen item': { category: 'item', movable: true, material: 'steel', verbatim: true },
  // living things
  animal: { category: 'living', movable: true, shownInPrompts: true, referents: ['living thing', 'organism'] },
  /** Plants at every life stage, seeds included (named "<species> seed" at stage 0). */
  plant: { category: 'living', movable: true, material: 'plant matter', referents: ['living thing', 'organism'] },
} as const satisfies Record<string, KindDef>;

export type KindName = keyof typeof KINDS;

export function kindDef(kind: string): KindDef {
  const k = (KINDS as Record<string, KindDef>)[kind];
  if (!k) throw new Error(`sciworld: unknown object kind '${kind}' (add it to world/kinds.ts)`);
  return k;
}
