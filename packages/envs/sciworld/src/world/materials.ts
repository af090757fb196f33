// Material table (thermal, electrical and naming facts per substance), after ScienceWorld's
// MaterialProperties.scala. The engine reads it generically; a new substance is one entry here.

export type StateOfMatter = 'solid' | 'liquid' | 'gas';

export interface Material {
  /** Names by state (ScienceWorld's nameInStateOfMatter); absent = same name in every state. */
  names?: Partial<Record<StateOfMatter, string>>;
  /** State at creation before the first tick. */
  state: StateOfMatter;
  meltingPoint: number;
  boilingPoint: number;
  combustionPoint: number;
  conductive: boolean;
  /** Degrees Celsius at creation (ScienceWorld starts most things at the ambient air temperature). */
  temperature?: number;
  /** Described by its bare name ("red paint"), not "a substance called …". */
  bare?: boolean;
  /** Share of a temperature gap that contact passes on (ScienceWorld's thermalConductivity; default 1). */
  thermalConductivity?: number;
}

const NEVER = 100_000;

export const MATERIALS = {
  air: { thermalConductivity: 0.01, names: { solid: 'solid air', liquid: 'liquid air', gas: 'air' }, state: 'gas', meltingPoint: -215, boilingPoint: -194, combustionPoint: NEVER, conductive: false },
  water: { thermalConductivity: 0.5, names: { solid: 'ice', liquid: 'water', gas: 'steam' }, state: 'liquid', meltingPoint: 0, boilingPoint: 100, combustionPoint: NEVER, conductive: false },
  'orange juice': {
    bare: true,
    thermalConductivity: 0.5,
    names: { solid: 'solid orange juice', liquid: 'orange juice', gas: 'gaseous orange juice' },
    state: 'liquid',
    meltingPoint: 0,
    boilingPoint: 100,
    combustionPoint: NEVER,
    conductive: false,
  },
  'apple juice': {
    bare: true,
    thermalConductivity: 0.5,
    names: { solid: 'solid apple juice', liquid: 'apple juice', gas: 'gaseous apple juice' },
    state: 'liquid',
    meltingPoint: -2,
    boilingPoint: 160,
    combustionPoint: NEVER,
    conductive: false,
  },
  chocolate: {
    bare: true,
    thermalConductivity: 0.5,
    names: { solid: 'chocolate', liquid: 'liquid chocolate', gas: 'gaseous chocolate' },
    state: 'solid',
    meltingPoint: 30,
    boilingPoint: NEVER,
    combustionPoint: 95,
    conductive: false,
  },
  marshmallow: {
    thermalConductivity: 0.5,
    bare: true,
    names: { solid: 'marshmallow', liquid: 'liquid marshmallow', gas: 'gaseous marshmallow' },
    state: 'solid',
    meltingPoint: 36,
    boilingPoint: NEVER,
    combustionPoint: 350,
    conductive: false,
  },
  'ice cream': {
    bare: true,
    thermalConductivity: 0.5,
    names: { solid: 'ice cream', liquid: 'liquid ice cream', gas: 'gaseous ice cream' },
    state: 'solid',
    meltingPoint: -10,
    boilingPoint: 101,
    combustionPoint: NEVER,
    conductive: false,
    temperature: -15,
  },
  soap: {
    thermalConductivity: 0.5,
    names: { solid: 'soap', liquid: 'liquid soap', gas: 'gaseous soap' },
    state: 'solid',
    meltingPoint: 140,
    boilingPoint: NEVER,
    combustionPoint: 537,
    conductive: false,
  },
  rubber: {
    thermalConductivity: 0.5,
    names: { solid: 'rubber', liquid: 'liquid rubber', gas: 'gaseous rubber' },
    state: 'solid',
    meltingPoint: 180,
    boilingPoint: 10_001,
    combustionPoint: 260,
    conductive: false,
  },
  lead: { names: { solid: 'lead', liquid: 'liquid lead', gas: 'gaseous lead' }, state: 'solid', meltingPoint: 327, boilingPoint: 1740, combustionPoint: NEVER, conductive: true },
  tin: { names: { solid: 'tin', liquid: 'liquid tin', gas: 'gasseous tin' }, state: 'solid', meltingPoint: 232, boilingPoint: 2602, combustionPoint: NEVER, conductive: true },
  mercury: { names: { solid: 'solid mercury', liquid: 'liquid mercury', gas: 'gaseous mercury' }, state: 'liquid', meltingPoint: -39, boilingPoint: 357, combustionPoint: NEVER, conductive: true },
  gallium: { names: { solid: 'gallium', liquid: 'liquid gallium', gas: 'gaseous gallium' }, state: 'solid', meltingPoint: 30, boilingPoint: 2400, combustionPoint: NEVER, conductive: true },
  caesium: { names: { solid: 'solid caesium', liquid: 'liquid caesium', gas: 'gaseous caesium' }, state: 'solid', meltingPoint: 29, boilingPoint: 671, combustionPoint: NEVER, conductive: true },
  sodium: {
    thermalConductivity: 0.2,
    names: { solid: 'sodium', liquid: 'liquid sodium', gas: 'gaseous sodium' },
    state: 'solid',
    meltingPoint: 98,
    boilingPoint: 881,
    combustionPoint: NEVER,
    conductive: true,
  },
  sugar: { thermalConductivity: 0.5, state: 'solid', meltingPoint: 186, boilingPoint: NEVER, combustionPoint: 350, conductive: false },
  'sodium chloride': {
    thermalConductivity: 0.2,
    names: { solid: 'sodium chloride', liquid: 'liquid sodium chloride', gas: 'gaseous sodium chloride' },
    state: 'solid',
    meltingPoint: 801,
    boilingPoint: 1465,
    combustionPoint: NEVER,
    conductive: false,
  },
  'acetic acid': {
    thermalConductivity: 0.2,
    names: { solid: 'solid acetic acid', liquid: 'acetic acid', gas: 'gaseous acetic acid' },
    state: 'liquid',
    meltingPoint: 17,
    boilingPoint: 119,
    combustionPoint: NEVER,
    conductive: false,
  },
  'sodium bicarbonate': { thermalConductivity: 0.2, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: NEVER, conductive: false },
  'sodium acetate': { thermalConductivity: 0.5, state: 'solid', meltingPoint: 324, boilingPoint: 881, combustionPoint: NEVER, conductive: false },
  ash: { thermalConductivity: 0.5, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: NEVER, conductive: false },
  soil: { thermalConductivity: 0.5, bare: true, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: 10_000, conductive: false },
  paint: { thermalConductivity: 0.2, bare: true, state: 'liquid', meltingPoint: -10, boilingPoint: 10_001, combustionPoint: NEVER, conductive: false },
  /** Products of the chemistry-mix recipes that are not a named substance (dough, smores, sandwiches …). */
  mixture: { thermalConductivity: 0.5, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: NEVER, conductive: false },
  /** What mixing makes of foods (ScienceWorld's Dough, Smores, MixedNuts, FruitSalad, Sandwich): listed by their bare names. */
  'food mixture': { bare: true, thermalConductivity: 0.5, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: NEVER, conductive: false },
  flour: { bare: true, thermalConductivity: 0.5, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: 400, conductive: false },
  /** ScienceWorld's MetalProp, the use-thermometer task's "unknown substance B" (shown bare). */
  'unknown metal': { bare: true, state: 'solid', meltingPoint: 1000, boilingPoint: 2000, combustionPoint: NEVER, conductive: true },
  // Materials of solid objects (never change state in this engine: only substances do).
  steel: { state: 'solid', meltingPoint: 1400, boilingPoint: 2900, combustionPoint: NEVER, conductive: true },
  iron: { state: 'solid', meltingPoint: 1538, boilingPoint: 2862, combustionPoint: NEVER, conductive: true },
  aluminum: { state: 'solid', meltingPoint: 660, boilingPoint: 2470, combustionPoint: NEVER, conductive: true },
  copper: { state: 'solid', meltingPoint: 1083, boilingPoint: 2500, combustionPoint: NEVER, conductive: true },
  brass: { state: 'solid', meltingPoint: 900, boilingPoint: 1100, combustionPoint: NEVER, conductive: true },
  zinc: { state: 'solid', meltingPoint: 419, boilingPoint: 906, combustionPoint: NEVER, conductive: true },
  wood: { thermalConductivity: 0.5, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: 350, conductive: false },
  plastic: { state: 'solid', meltingPoint: 200, boilingPoint: 300, combustionPoint: NEVER, conductive: false },
  glass: { state: 'solid', meltingPoint: 1400, boilingPoint: 2200, combustionPoint: NEVER, conductive: false },
  ceramic: { thermalConductivity: 0.02, state: 'solid', meltingPoint: 2000, boilingPoint: 10_001, combustionPoint: 10_000, conductive: false },
  paper: { thermalConductivity: 0.5, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: 210, conductive: false },
  cloth: { thermalConductivity: 0.1, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: 300, conductive: false },
  'plant matter': { thermalConductivity: 0.5, state: 'solid', meltingPoint: 10_000, boilingPoint: 10_001, combustionPoint: 200, conductive: false },
} as const satisfies Record<string, Material>;

export type MaterialName = keyof typeof MATERIALS;

/**
 * Unknown substances A–T for the "unknown substance" tasks: solids whose melting point (40–230 °C,
 * within a stove's or an oven's reach) and conductivity the agent must find out.
 */
export const UNKNOWN_LETTERS = 'ABCDEFGHIJKLMNOPQRST'.split('');
const UNKNOWN_MATERIALS: Record<string, Material> = Object.fromEntries(
  UNKNOWN_LETTERS.map((letter, i) => [
    `unknown ${letter}`,
    { state: 'solid', meltingPoint: 40 + ((i * 53) % 191), boilingPoint: 5000, combustionPoint: NEVER, conductive: (i * 7) % 3 !== 1 } satisfies Material,
  ]),
);

/**
 * The melting-point task's unknown substances B–Z (no A or I): ScienceWorld's precomputed melting
 * points, created at 10 °C (its metal default) and named by state ("solid unknown substance B").
 */
export const THERMAL_UNKNOWN_MELTING_POINTS: Readonly<Record<string, number>> = {
  B: 75,
  C: 115,
  D: -30,
  E: -10,
  F: 275,
  G: 30,
  H: 225,
  J: -75,
  K: 520,
  L: 325,
  M: -25,
  N: 175,
  O: 25,
  P: 75,
  Q: 425,
  R: 30,
  S: 15,
  T: -2,
  U: 625,
  V: -220,
  W: 575,
  X: -175,
  Y: 675,
  Z: 775,
};
export const THERMAL_UNKNOWN_CREATED_C = 10;
const THERMAL_UNKNOWN_MATERIALS: Record<string, Material> = Object.fromEntries(
  Object.entries(THERMAL_UNKNOWN_MELTING_POINTS).map(([letter, mp]) => [
    `thermal unknown ${letter}`,
    {
      bare: true,
      names: { solid: `solid unknown substance ${letter}`, liquid: `liquid unknown substance ${letter}`, gas: `gaseous unknown substance ${letter}` },
      state: THERMAL_UNKNOWN_CREATED_C < mp ? 'solid' : 'liquid',
      meltingPoint: mp,
      boilingPoint: 5000,
      combustionPoint: NEVER,
      conductive: true,
      temperature: THERMAL_UNKNOWN_CREATED_C,
    } satisfies Material,
  ]),
);

export function material(name: string): Material {
  // Every tick looks up every substance's material: one map lookup instead of three table probes.
  const known = byName.get(name);
  if (known) return known;
  const m = (MATERIALS as Record<string, Material>)[name] ?? UNKNOWN_MATERIALS[name] ?? THERMAL_UNKNOWN_MATERIALS[name];
  if (!m) throw new Error(`sciworld: unknown material '${name}' (add it to world/materials.ts)`);
  byName.set(name, m);
  return m;
}

/** material's memo (the tables are fixed, so a found entry never changes). */
const byName = new Map<string, Material>();

/** The substance's name in a state, e.g. water → ice / water / steam. */
export function nameInState(materialName: string, state: StateOfMatter): string {
  return material(materialName).names?.[state] ?? materialName;
}

/**
 * The state a material is in at a temperature, as ScienceWorld 1.2.3's StateOfMatter decides it:
 * solid below the melting point, gas above the boiling point, liquid from one to the other inclusive.
 */
export function stateAt(materialName: string, temperature: number): StateOfMatter {
  const m = material(materialName);
  if (temperature < m.meltingPoint) return 'solid';
  if (temperature > m.boilingPoint) return 'gas';
  return 'liquid';
}

/** Temperature every thing is created at (ScienceWorld's materials start at 10 °C; ice cream at −15). */
export const CREATED_C = 10;
/**
 * Temperature of the air every room is built with: ScienceWorld's locations set their air to 25 °C, so
 * each tick the air passes 0.1 × 0.01 of its gap to every thing in the room (and back); after a dozen
 * ticks a thing left in a room is a little over 10 °C (a thermometer going into an oven then reads
 * 155 where 10.0 °C would read 154).
 */
export const ROOM_AIR_C = 25;
/** ScienceWorld's HEAT_TRANSFER_COEFFICIENT: share of a (conductivity-weighted) gap passed per tick. */
export const HEAT_TRANSFER_COEFFICIENT = 0.1;
/** ScienceWorld's MAX_TRANSFER_PER_STEP: no single exchange moves a temperature further than this. */
export const MAX_TRANSFER_PER_TICK = 1000;
/** ScienceWorld's default thermal conductivity (MaterialProperties). */
export const DEFAULT_THERMAL_CONDUCTIVITY = 1;
