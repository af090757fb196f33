// Procedural, seeded ALFWorld games. A floorplan (room type + number) fixes the receptacles and how
// they share locations; a game seed stocks the objects (each where the paper's real games put its
// class, engine/placement.ts) and picks a solvable goal. Train and in-distribution games use
// ALFRED's seen floorplans, out-of-distribution games its valid_unseen ones (one per room type;
// world/vocab.ts), so the OOD split tests unseen layouts.
import { Rng, hashSeed } from '@diffworld/env-core';
import { TASK_SPECS, type TaskType } from '../world/tasks.js';
import { FIXED_OBJECTS, FIXED_PLACEMENT, FLOORPLAN_BASE, SEEN_FLOORPLANS, UNSEEN_FLOORPLANS, OPENABLE, ROOMS, TOGGLEABLE, canContain, type RoomType } from '../world/vocab.js';
import { TRANSFORM_RULES } from '../world/rules.js';
import { byDisplayOrder } from './names.js';
import { pickWeighted, placementRate } from './placement.js';
import type { GameSpec, GoalSpec, ObjectSpec, ReceptacleSpec } from './scene.js';

export class GenerationError extends Error {
  constructor(message: string) {
    super(`[alfworld.generate] ${message}`);
    this.name = 'GenerationError';
  }
}

/** Classes that may share a location with another receptacle of the same kind (cabinet 1 + cabinet 4). */
const SHAREABLE = new Set(['cabinet', 'drawer', 'shelf']);

export interface Layout {
  roomType: RoomType;
  floorplan: number;
  receptacles: ReceptacleSpec[];
  locations: number[];
}

const layoutCache = new Map<string, Layout>();

/** The fixed receptacle layout of a floorplan (deterministic in room type and number). */
export function floorplanLayout(roomType: RoomType, floorplanNumber: number): Layout {
  const key = `${roomType}:${floorplanNumber}`;
  const cached = layoutCache.get(key);
  if (cached) return cached;
  const rng = new Rng(hashSeed(`alfworld-floorplan:${key}`));
  const recs: ReceptacleSpec[] = [];
  for (const [cls, lo, hi] of ROOMS[roomType].receptacles) {
    const n = rng.int(lo, hi);
    for (let i = 1; i <= n; i++) {
      // About one drawer in eight has no door and prints "On the drawer N, you see …".
      const openable = OPENABLE.has(cls) && !(cls === 'drawer' && rng.bool(0.12));
      recs.push({ name: `${cls} ${i}`, cls, num: i, openable, loc: -1 });
    }
  }
  // Group into locations: most receptacles stand alone, some cabinets/drawers/shelves share a spot.
  const order = rng.shuffle(recs);
  const groups: ReceptacleSpec[][] = [];
  for (const r of order) {
    const host = SHAREABLE.has(r.cls) && rng.bool(0.25) ? groups.find((g) => g.length < 3 && g[0]!.cls === r.cls) : undefined;
    if (host) host.push(r);
    else groups.push([r]);
  }
  groups.forEach((g, i) => g.forEach((r) => (r.loc = i)));
  const labels = rng.shuffle(Array.from({ length: groups.length }, (_, i) => i + 1));
  const layout: Layout = { roomType, floorplan: FLOORPLAN_BASE[roomType] + floorplanNumber, receptacles: recs.sort(byDisplayOrder), locations: labels };
  layoutCache.set(key, layout);
  return layout;
}

interface Candidate {
  obj: string;
  recep: string;
  toggle: string;
}

/** Every (object, destination[, lamp]) combination of this task type the layout can host. */
function candidates(taskType: TaskType, roomType: RoomType, recClasses: Set<string>, lamps: string[]): Candidate[] {
  const spec = TASK_SPECS[taskType];
  const room = ROOMS[roomType];
  const out: Candidate[] = [];
  for (const obj of room.objects) {
    // The object must be able to start somewhere that is not its destination class.
    const homes = [...recClasses].filter((r) => canContain(r, obj));
    if (homes.length === 0) continue;
    if (spec.light) {
      for (const toggle of lamps) out.push({ obj, recep: '', toggle });
      continue;
    }
    if (spec.transform) {
      if (!TRANSFORM_RULES[spec.transform].objects.has(obj)) continue;
      if (!TRANSFORM_RULES[spec.transform].appliances.some((a) => recClasses.has(a))) continue;
    }
    for (const recep of recClasses) {
      if (!canContain(recep, obj)) continue;
      if (!homes.some((h) => h !== recep)) continue;
      // Heating into the microwave or cooling into the fridge would make the goal degenerate.
      if (spec.transform && TRANSFORM_RULES[spec.transform].appliances.includes(recep)) continue;
      out.push({ obj, recep, toggle: '' });
    }
  }
  return out;
}

export interface GameRequest {
  id: string;
  split: string;
  taskType: TaskType;
  seed: number;
}

/** Builds the game of a task. Deterministic; throws GenerationError only on an impossible request. */
export function generateGame(req: GameRequest): GameSpec {
  const spec = TASK_SPECS[req.taskType];
  if (!spec) throw new GenerationError(`unknown task type ${JSON.stringify(req.taskType)}`);
  const floorplans = req.split === 'eval_out_of_distribution' ? UNSEEN_FLOORPLANS : SEEN_FLOORPLANS;
  // Some floorplans cannot host some goals (no lamp, no fridge): retry on a derived stream.
  for (let attempt = 0; attempt < 64; attempt++) {
    const rng = new Rng(hashSeed(`${req.seed}:${attempt}`));
    const roomType = rng.pick(spec.rooms);
    const layout = floorplanLayout(roomType, rng.pick(floorplans[roomType]));
    const game = tryGenerate(req, rng, layout);
    if (game) return game;
  }
  throw new GenerationError(`no solvable ${req.taskType} game found for seed ${req.seed} (task ${req.id})`);
}

function tryGenerate(req: GameRequest, rng: Rng, layout: Layout): GameSpec | undefined {
  const spec = TASK_SPECS[req.taskType];
  const room = ROOMS[layout.roomType];
  const recs = layout.receptacles;
  const recClasses = new Set(recs.map((r) => r.cls));

  // Lamps and scenery: each class present with its probability, on a receptacle that can hold it.
  const fixed: { cls: string; parent: string }[] = [];
  for (const [cls, p] of room.fixed) {
    const hosts = recs.filter((r) => (FIXED_PLACEMENT[cls] ?? []).includes(r.cls) && !r.openable);
    if (hosts.length === 0) continue;
    const force = spec.light && TOGGLEABLE.has(cls) && rng.bool(0.5);
    if (!force && !rng.bool(p)) continue;
    fixed.push({ cls, parent: pickWeighted(rng, hosts, (r) => placementRate(cls, r.cls)).name });
  }
  const lamps = [...new Set(fixed.filter((f) => TOGGLEABLE.has(f.cls)).map((f) => f.cls))];

  const options = candidates(req.taskType, layout.roomType, recClasses, lamps);
  if (options.length === 0) return undefined;
  const target = rng.pick(options);

  // Stock the room: the target class with 1–4 instances (2–4 for pick-two), others at random.
  const counts = new Map<string, number>();
  for (const cls of room.objects) if (rng.bool(0.45)) counts.set(cls, rng.int(1, 3));
  counts.set(target.obj, spec.two ? rng.int(2, 4) : rng.int(1, 4));
  const objects: ObjectSpec[] = [];
  for (const [cls, n] of counts) {
    // Target objects never start in the destination class, so no goal is satisfied at reset.
    const hosts = recs.filter((r) => canContain(r.cls, cls) && !(cls === target.obj && r.cls === target.recep));
    if (hosts.length === 0) continue;
    const nums = rng.shuffle(Array.from({ length: n }, (_, i) => i + 1));
    // Where the real games put this class (engine/placement.ts), among the receptacles that can hold it.
    for (const num of nums) objects.push({ name: `${cls} ${num}`, cls, num, parent: pickWeighted(rng, hosts, (r) => placementRate(cls, r.cls)).name, pickupable: true, toggleable: false });
  }
  const fixedCount = new Map<string, number>();
  for (const f of fixed) {
    const num = (fixedCount.get(f.cls) ?? 0) + 1;
    fixedCount.set(f.cls, num);
    objects.push({ name: `${f.cls} ${num}`, cls: f.cls, num, parent: f.parent, pickupable: !FIXED_OBJECTS.has(f.cls), toggleable: TOGGLEABLE.has(f.cls) });
  }
  const present = objects.filter((o) => o.cls === target.obj).length;
  if (present < (spec.two ? 2 : 1)) return undefined;

  const template = rng.pick(spec.templates);
  const goal: GoalSpec = {
    text: template.replace('{obj}', target.obj).replace('{recep}', target.recep).replace('{toggle}', target.toggle),
    taskType: req.taskType,
    obj: target.obj,
    recep: target.recep,
    toggle: target.toggle,
  };
  return {
    id: req.id,
    split: req.split,
    seed: req.seed,
    roomType: layout.roomType,
    floorplan: layout.floorplan,
    receptacles: recs.map((r) => ({ ...r })),
    locations: layout.locations.slice(),
    objects: objects.sort(byDisplayOrder),
    goal,
  };
}
