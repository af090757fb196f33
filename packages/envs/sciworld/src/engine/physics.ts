// One world tick: heat transfer along containment, state changes and combustion, water sources,
// plant growth, and the electrical circuit. Behaviour comes from kind/material data only.
import { DEFAULT_THERMAL_CONDUCTIVITY, HEAT_TRANSFER_COEFFICIENT, MAX_TRANSFER_PER_TICK, material, stateAt } from '../world/materials.js';
import { FLOWER_TICKS, PLANT_ENDURANCE, POLLINATION_TICKS, STAGE_TICKS } from '../world/grammar.js';
import { TEXT } from '../world/text.js';
import { World, NONE, type Obj } from './world.js';
import { seedName } from '../world/plant-traits.js';
import { solveCircuit } from './circuit.js';

export interface PhysicsOptions {
  selfWateringFlowerPots: boolean;
}

/**
 * The thermal conductivity a thing exchanges heat with, or undefined for things ScienceWorld gives no
 * material (rooms, the agent, appliances, batteries, bulbs, animals): those take no part in contact.
 */
function conductivity(w: World, o: Obj): number | undefined {
  const k = w.kind(o);
  if (k.heat === false) return undefined;
  const m = k.heat ?? o.material;
  return m === undefined ? undefined : materialConductivity(m);
}

/** Whether a thermometer can read the thing: ScienceWorld's things with a material (a temperature). */
export function hasTemperature(w: World, o: Obj): boolean {
  return conductivity(w, o) !== undefined;
}

/** Per-material conductivity, memoised: every tick asks it for every thing in the world. */
const conductivities = new Map<string, number>();
function materialConductivity(m: string): number {
  let k = conductivities.get(m);
  if (k === undefined) {
    k = material(m).thermalConductivity ?? DEFAULT_THERMAL_CONDUCTIVITY;
    conductivities.set(m, k);
  }
  return k;
}

const clip = (x: number) => (Math.abs(x) > MAX_TRANSFER_PER_TICK ? MAX_TRANSFER_PER_TICK * Math.sign(x) : x);

/** ScienceWorld's contact exchange: a moves towards b, then b towards a's new temperature. */
function exchange(a: Obj, ka: number, b: Obj, kb: number): void {
  // Equal (finite) temperatures pass nothing: both updates would add exactly 0.
  if (a.temperature === b.temperature && Number.isFinite(a.temperature)) return;
  const k = Math.min(ka, kb);
  a.temperature += clip((b.temperature - a.temperature) * k * HEAT_TRANSFER_COEFFICIENT);
  b.temperature += clip((a.temperature - b.temperature) * k * HEAT_TRANSFER_COEFFICIENT);
}

/**
 * Every pair (i, j < i) exchanges as `exchange` does, on a scratch copy of the temperatures (the
 * room's pair walk is the tick's hottest loop: a room's air keeps its things apart, so it runs every tick).
 */
let scratch = new Float64Array(64);
function exchangePairs(things: readonly Obj[], ks: readonly number[]): void {
  const n = things.length;
  if (scratch.length < n) scratch = new Float64Array(2 * n);
  const t = scratch;
  for (let i = 0; i < n; i++) t[i] = things[i]!.temperature;
  for (let i = 1; i < n; i++) {
    const ki = ks[i]!;
    for (let j = 0; j < i; j++) {
      const a = t[i]!;
      const b = t[j]!;
      if (a === b && Number.isFinite(a)) continue;
      const k = Math.min(ki, ks[j]!);
      const a2 = a + clip((b - a) * k * HEAT_TRANSFER_COEFFICIENT);
      t[i] = a2;
      t[j] = b + clip((a2 - b) * k * HEAT_TRANSFER_COEFFICIENT);
    }
  }
  for (let i = 0; i < n; i++) things[i]!.temperature = t[i]!;
}

/** True when every thing has the same finite temperature (then no pair among them exchanges anything). */
function allAtOneTemperature(things: readonly Obj[]): boolean {
  const t = things[0]?.temperature ?? 0;
  if (!Number.isFinite(t)) return false;
  for (const c of things) if (c.temperature !== t) return false;
  return true;
}

/**
 * Heat flows as ScienceWorld's tick walks the containment tree: a device that is on drives each thing
 * directly in it towards its set temperature (heaters only warm, coolers only chill); a container
 * with a material exchanges with each thing in it; things in the same container exchange pairwise;
 * then each contained thing does the same for its own contents.
 */
function transferHeat(w: World, o: Obj): void {
  if (o.contents.length === 0) return; // most things hold nothing: no exchange, nothing to walk
  const k = w.kind(o);
  const inside: Obj[] = [];
  for (const id of o.contents) {
    const c = w.get(id);
    if (!c.removed) inside.push(c);
  }
  // Heaters and coolers act only while on (ScienceWorld's coolers start on and can be deactivated).
  const set = o.isOn ? (k.heats ?? k.cools) : undefined;
  if (set !== undefined) {
    for (const c of inside) {
      if (conductivity(w, c) === undefined) continue;
      if (k.heats !== undefined ? c.temperature < set : c.temperature > set) c.temperature += clip((set - c.temperature) * HEAT_TRANSFER_COEFFICIENT);
    }
  }
  const ko = conductivity(w, o);
  const touching: Obj[] = [];
  const kt: number[] = [];
  for (const c of inside) {
    const kc = conductivity(w, c);
    if (kc !== undefined) touching.push(c), kt.push(kc);
  }
  if (ko !== undefined) for (let i = 0; i < touching.length; i++) exchange(o, ko, touching[i]!, kt[i]!);
  // A room's things mostly sit at one temperature: checking that once skips the quadratic pair walk.
  if (!allAtOneTemperature(touching)) exchangePairs(touching, kt);
  for (const c of inside) transferHeat(w, c);
}

/** The passes below visit only the kinds of thing they act on (World.select keeps those lists). */
const isSubstance = (o: Obj) => o.def.category === 'substance';
const isWaterSource = (o: Obj) => o.def.waterSource === true;
const drainsOrRefills = (o: Obj) => o.def.drain === true || o.def.refills !== undefined;
const isPot = (o: Obj) => o.kind === 'self watering flower pot' || o.kind === 'flower pot';
const isPlant = (o: Obj) => o.kind === 'plant';
const isAnimal = (o: Obj) => o.kind === 'animal';
const isTimer = (o: Obj) => o.def.timer === true;
const isIncline = (o: Obj) => o.def.incline === true;

export function tick(w: World, opts: PhysicsOptions): void {
  for (const r of w.roomIds.values()) transferHeat(w, w.get(r));
  for (const o of w.select('substances', isSubstance)) {
    if (o.removed || !o.material || !o.state || o.combusted) continue;
    if (o.temperature >= material(o.material).combustionPoint) {
      o.combusted = true;
      o.state = 'solid';
      delete o.bornName;
      continue;
    }
    const state = stateAt(o.material, o.temperature);
    if (state !== o.state) delete o.bornName;
    o.state = state;
  }
  fillFromWaterSources(w);
  refillAndSeal(w);
  growPlants(w, opts);
  pollinate(w);
  slideAndTime(w);
  solveCircuit(w);
}

function fillFromWaterSources(w: World): void {
  for (const dev of w.select('water sources', isWaterSource)) {
    if (dev.removed || !dev.isOn) continue;
    for (const cid of dev.contents) {
      const c = w.get(cid);
      if (w.kind(c).holds !== 'containing' || !c.isOpen) continue;
      const hasWater = c.contents.some((s) => w.get(s).material === 'water' && w.get(s).state === 'liquid' && !w.get(s).fixedName);
      if (!hasWater) w.create({ kind: 'substance', material: 'water' }, c.id);
    }
  }
}

/** Self-refilling things (fountains) get their material back; drains seal again (ScienceWorld's toilet tick). */
function refillAndSeal(w: World): void {
  for (const o of w.select('drains and refills', drainsOrRefills)) {
    if (o.removed) continue;
    const k = w.kind(o);
    if (k.drain) o.isOpen = false;
    const m = k.refills;
    if (m && !o.contents.some((c) => w.get(c).material === m)) w.create({ kind: 'substance', material: m }, o.id);
  }
}

/**
 * ScienceWorld's flower pots refill themselves with water each tick when the selfWateringFlowerPots
 * simplification is on (with or without a plant); "self watering flower pot"s always do.
 */
function waterPots(w: World, opts: PhysicsOptions): void {
  const hasWater = (pot: Obj) => pot.contents.some((c) => w.get(c).material === 'water' && !w.get(c).removed);
  for (const pot of w.select('flower pots', isPot)) {
    if (pot.removed || pot.parent === NONE) continue;
    const self = pot.kind === 'self watering flower pot';
    if (!(self || (pot.kind === 'flower pot' && opts.selfWateringFlowerPots))) continue;
    if (!hasWater(pot)) w.create({ kind: 'substance', material: 'water' }, pot.id);
  }
}

/**
 * Plants live as ScienceWorld's do, in whatever holds them (after the pots refill), one after another
 * in creation order (ScienceWorld's is its per-run hash order): a seed counts the ticks it has water
 * and soil and, after its stage's ticks, drinks the water and sprouts; a seedling grows the same way;
 * an adult or reproducing plant drinks the water every tick and counts on; a reproducing plant grows
 * a flower every FLOWER_TICKS ticks while it has none. So two plants sharing a pot compete: the first
 * one drinks, and a seedling after it goes dry, looks unwell and dies (PLANT_ENDURANCE), as a second
 * seedling in a shared pot does in the real engine.
 */
function growPlants(w: World, opts: PhysicsOptions): void {
  waterPots(w, opts);
  const dead = TEXT.stageNames.indexOf('dead');
  for (const p of w.select('plants', isPlant)) {
    if (p.removed || p.parent === NONE) continue;
    if (p.stage === dead) shedContents(w, p);
    else if (p.stage === 0) growSeed(w, p);
    else growPlant(w, p, dead);
  }
}

/** The thing of this material in the plant's holder (water to drink, soil to root in). */
function inHolder(w: World, p: Obj, m: string): Obj | undefined {
  for (const id of w.get(p.parent).contents) {
    const c = w.get(id);
    if (c.material === m && !c.combusted && !c.removed) return c;
  }
  return undefined;
}

/** A seed waits for water and soil (nothing harms it); after its ticks it drinks the water and sprouts. */
function growSeed(w: World, p: Obj): void {
  const water = inHolder(w, p, 'water');
  if (water === undefined || inHolder(w, p, 'soil') === undefined) return;
  if (++p.stageTicks < STAGE_TICKS[0]) return;
  w.remove(water.id);
  nextStage(p, 1);
}

/**
 * A seedling, adult or reproducing plant: grown plants drink every tick; dryness, a missing soil or a
 * temperature out of bounds stress it (no growth), make it look unwell and in the end kill it. As in
 * ScienceWorld, a stage change decided later in the same tick replaces an earlier one.
 */
function growPlant(w: World, p: Obj, dead: number): void {
  const stage = p.stage;
  const counted = p.stageTicks;
  const grown = stage >= 2;
  const s = (p.stress ??= { dry: 0, soilless: 0, outOfBounds: 0 });
  let stressed = false;
  let sickly = false;
  const water = inHolder(w, p, 'water');
  if (water !== undefined) {
    s.dry = 0;
    if (grown) w.remove(water.id);
  } else {
    const limits = grown ? PLANT_ENDURANCE.dry.grown : PLANT_ENDURANCE.dry.seedling;
    s.dry++;
    if (!grown) stressed = true;
    if (s.dry >= limits.unwell) stressed = sickly = true;
    if (s.dry >= limits.dies) nextStage(p, dead);
  }
  if (inHolder(w, p, 'soil') !== undefined) s.soilless = 0;
  else {
    stressed = true;
    s.soilless++;
    if (s.soilless >= PLANT_ENDURANCE.soilless.unwell) sickly = true;
    if (s.soilless >= PLANT_ENDURANCE.soilless.dies) nextStage(p, dead);
  }
  if (p.temperature >= PLANT_ENDURANCE.maxC || p.temperature <= PLANT_ENDURANCE.minC) {
    s.outOfBounds++;
    sickly = true;
    if (s.outOfBounds >= PLANT_ENDURANCE.outOfBounds.dies) nextStage(p, dead);
  } else s.outOfBounds = 0;
  p.sickly = sickly;
  if (stressed) return;
  // Counting goes on in the stage this tick began in (the real stage object finishes its tick, so
  // reaching the stage's end replaces a death decided above).
  const ticks = counted + 1;
  if (p.stage === stage) p.stageTicks = ticks;
  if (stage === STAGE_TICKS.length) {
    if (ticks % FLOWER_TICKS === 0 && !p.contents.some((c) => w.get(c).kind === 'flower')) w.create({ kind: 'flower' }, p.id);
    return;
  }
  if (ticks < STAGE_TICKS[stage]!) return;
  if (!grown && water !== undefined) w.remove(water.id);
  nextStage(p, stage + 1);
}
/** A new life stage starts with its own counts (ScienceWorld makes a new stage object). */
function nextStage(p: Obj, stage: number): void {
  p.stage = stage;
  p.stageTicks = 0;
  delete p.stress;
}

/** A dead plant drops what it holds into its holder; its flowers wither away (PlantLifeStageDeath). */
function shedContents(w: World, p: Obj): void {
  for (const id of [...p.contents]) {
    if (w.get(id).kind === 'flower') w.remove(id);
    else w.moveTo(id, p.parent);
  }
}

/**
 * Cross-pollination: a reproducing plant sets one fruit (named after its species, in its pot) after
 * POLLINATION_TICKS ticks in a room with a bee and another reproducing plant of its species.
 */
function pollinate(w: World): void {
  const flowering = w.select('plants', isPlant).filter((o) => !o.removed && o.stage === 3 && o.parent !== NONE && !o.tags.includes('fruited'));
  if (flowering.length < 2) return;
  const beeRooms = new Set(
    w
      .select('animals', isAnimal)
      .filter((o) => !o.removed && o.species === 'bee' && o.parent !== NONE)
      .map((b) => w.roomOf(b.id)),
  );
  for (const p of flowering) {
    const room = w.roomOf(p.id);
    if (!beeRooms.has(room) || !flowering.some((q) => q !== p && q.species === p.species && w.roomOf(q.id) === room)) continue;
    p.counter++;
    if (p.counter >= POLLINATION_TICKS) {
      p.tags.push('fruited');
      const partner = flowering.find((q) => q !== p && q.species === p.species && w.roomOf(q.id) === room)!;
      if (p.genes && partner.genes) {
        // Plants bred for a trait set a seed instead of fruit: one allele from each parent (the
        // first allele of this plant, the second of its partner — deterministic, so true-breeding
        // parents always give the hybrid a Punnett square predicts).
        const cross = <T extends { alleles: readonly [boolean, boolean] }>(a: T, b: T): T => ({ ...a, alleles: [a.alleles[0], b.alleles[1]] as const });
        const traits = p.genes.traits && partner.genes.traits ? p.genes.traits.map((t, i) => cross(t, partner.genes!.traits![i]!)) : undefined;
        const genes = { ...cross(p.genes, partner.genes), ...(traits ? { traits } : {}) };
        w.create({ kind: 'plant', species: p.species!, stage: 0, tags: ['offspring'], genes, ...(traits ? { shown: seedName(p.species!, traits) } : {}) }, p.parent);
      } else w.create({ kind: 'food', name: p.species!, tags: ['fruit'] }, p.parent);
    }
  }
}

/**
 * Stopwatches count ticks while on. Things on an inclined plane slide as ScienceWorld's
 * InclinedPlane moves them: each tick down by g·sin(angle)·(1 − friction) of the plane's length
 * (g = 0.1 as a Java float), liquids straight to the bottom, gases back to the top.
 */
function slideAndTime(w: World): void {
  // ScienceWorld's StopWatch: a running count restarts from 0 while it is off, and the time shown
  // (`counter`) is the running count's last value, so a second run starts again at 1.
  for (const o of w.select('timers', isTimer)) {
    if (o.removed || o.parent === NONE) continue;
    if (o.isOn) o.counter = ++o.timerRun;
    else o.timerRun = 0;
  }
  for (const plane of w.select('inclines', isIncline)) {
    if (plane.removed) continue;
    for (const id of plane.contents) {
      const o = w.get(id);
      if (o.removed || o.def.category === 'terminal') continue;
      o.counter++;
      if (o.state === 'liquid') o.planePosition = 0;
      else if (o.state === 'gas') o.planePosition = 1;
      else if (o.planePosition > 0) {
        const forceDown = G_FLOAT * Math.sin(((plane.angle ?? 45) / 180) * Math.PI);
        o.planePosition = Math.max(o.planePosition - forceDown * (1 - (plane.friction ?? 0.5)), 0);
      }
    }
  }
}

/** ScienceWorld's g for inclined planes, 0.1f widened to a double. */
const G_FLOAT = Math.fround(0.1);
