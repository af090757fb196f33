// The paper's rows → games our engine plays: receptacles and objects where the real game put them
// (the row's scene walk), the goal of the row, the floorplan of its game path. A row does not pin
// the scene down completely; every guess is listed in `inferred`, one sentence each:
// - which receptacles share a location is not recorded: each gets its own;
// - a receptacle of an openable class that the walk found open (no "is closed" on arrival) with
//   objects "on" it has no door; a fridge or microwave found open started open, and the walk
//   recorded none of its contents (it parses only "On the R, you see …"); a cabinet, drawer or safe
//   found open with nothing recorded is taken as doorless and empty;
// - an object listed in two receptacles is in both (real scenes do this: a keychain in a safe on a
//   dresser); it starts in the first and leaves both when taken;
// - objects the goal needs but the walk did not see (inside an open fridge or microwave) are added
//   there, numbered after the ones seen.
import { hashSeed, type TaskRef } from '@diffworld/env-core';
import { byDisplayOrder, splitName } from '../engine/names.js';
import type { GameSpec, ObjectSpec, ReceptacleSpec } from '../engine/scene.js';
import { ENV_NAME } from '../engine/splits.js';
import { TASK_SPECS } from '../world/tasks.js';
import { ALWAYS_DOORED, FIXED_OBJECTS, FIXED_PLACEMENT, OPENABLE, TOGGLEABLE, canContain, type RoomType } from '../world/vocab.js';
import { PaperRowError, type PaperRow } from './rows.js';

export interface ImportedGame {
  /** Plays through the suite like any task: `gameForTask` finds it once registered. */
  task: TaskRef;
  /** The row's game path, as the paper's clients send it in `game_file`. */
  gameFile: string;
  spec: GameSpec;
  /** What the row did not say and the import assumed. */
  inferred: string[];
}

/**
 * The key of a game path: what follows `json_2.1.x/` without `/game.tw-pddl`
 * (`valid_seen/<task dir>/trial_…`); a path without that prefix is used as it is, trimmed of slashes.
 */
export function paperGameKey(gameFile: string): string {
  const m = /json_[\d.]+\/(.+?)(?:\/game\.tw-pddl)?\/?$/.exec(gameFile);
  return (m ? m[1]! : gameFile.replace(/\/game\.tw-pddl$/, '')).replace(/^\/+|\/+$/g, '');
}

const ROOM_BY_HUNDRED: Record<number, RoomType> = { 0: 'kitchen', 2: 'livingroom', 3: 'bedroom', 4: 'bathroom' };

function floorplanOf(key: string, where: string): { floorplan: number; roomType: RoomType } {
  const m = /-(\d+)\/trial_/.exec(key) ?? /-(\d+)$/.exec(key.split('/')[1] ?? '');
  const floorplan = m ? Number(m[1]) : NaN;
  const roomType = ROOM_BY_HUNDRED[Math.floor(floorplan / 100)];
  if (!roomType) throw new PaperRowError(`${where}: game_file`, `no ALFRED floorplan number in ${JSON.stringify(key)}`);
  return { floorplan, roomType };
}

/** What a row's scene walk records: the goal, the receptacles in walk order with their state, the listings in walk order. */
export interface SceneWalk {
  goal: string;
  receptacles: { name: string; state: 'open' | 'closed' }[];
  objects: { name: string; rel: 'in' | 'on'; receptacle: string }[];
}

/** Reads the walk of a row's `wm_system_prompt`; `where` names the row in errors. */
export function readSceneWalk(prompt: string, where: string): SceneWalk {
  const goal = /^Task: (.+)\.$/m.exec(prompt)?.[1];
  if (!goal) throw new PaperRowError(`${where}: wm_system_prompt`, 'no "Task: …." line');
  const section = (title: string) => {
    const at = prompt.indexOf(`## ${title}\n`);
    if (at < 0) throw new PaperRowError(`${where}: wm_system_prompt`, `no "## ${title}" section`);
    const body = prompt.slice(at + title.length + 4);
    const end = body.indexOf('\n## ');
    return (end < 0 ? body : body.slice(0, end)).split('\n').filter((l) => l.startsWith('- '));
  };
  const receptacles = section('INITIAL SCENE').map((l) => {
    const m = /^- (.+ \d+) \((open|closed)\)$/.exec(l);
    if (!m) throw new PaperRowError(`${where}: wm_system_prompt`, `unreadable scene line ${JSON.stringify(l)}`);
    return { name: m[1]!, state: m[2] as 'open' | 'closed' };
  });
  const objects = section('INITIAL OBJECT LOCATIONS').map((l) => {
    const m = /^- (.+ \d+): (in|on) (.+ \d+)$/.exec(l);
    if (!m) throw new PaperRowError(`${where}: wm_system_prompt`, `unreadable object line ${JSON.stringify(l)}`);
    return { name: m[1]!, rel: m[2] as 'in' | 'on', receptacle: m[3]! };
  });
  return { goal, receptacles, objects };
}

/** One row → one playable game. `where` names the row in errors (e.g. `rows.jsonl:12`). */
export function importPaperRow(row: PaperRow, where = 'row'): ImportedGame {
  const key = paperGameKey(row.game_file);
  const { floorplan, roomType } = floorplanOf(key, where);
  const walk = readSceneWalk(row.wm_system_prompt, where);
  const inferred: string[] = [];
  if (walk.receptacles.length > 1) inferred.push('each receptacle stands at its own location (the row does not say which share one)');

  const seenOn = new Set(walk.objects.filter((o) => o.rel === 'on').map((o) => o.receptacle));
  const unknownContents: string[] = [];
  const receptacles: ReceptacleSpec[] = walk.receptacles.map((r, loc) => {
    const { cls, num } = splitName(r.name);
    let openable = OPENABLE.has(cls) && (r.state === 'closed' || (!seenOn.has(r.name) && ALWAYS_DOORED.has(cls)));
    const open = openable && r.state === 'open';
    if (open) {
      unknownContents.push(r.name);
      inferred.push(`${r.name} starts open and its contents were not recorded`);
    } else if (OPENABLE.has(cls) && r.state === 'open' && !seenOn.has(r.name)) {
      openable = false;
      unknownContents.push(r.name);
      inferred.push(`${r.name} was found open with nothing recorded: taken as doorless and empty`);
    }
    return { name: r.name, cls, num, openable, ...(open ? { open: true } : {}), loc };
  });
  const known = new Map(receptacles.map((r) => [r.name, r]));

  const objects: ObjectSpec[] = [];
  const placed = new Set<string>();
  for (const o of walk.objects) {
    if (!known.has(o.receptacle)) throw new PaperRowError(`${where}: wm_system_prompt`, `${o.name} is in ${o.receptacle}, which the scene does not list`);
    if (placed.has(o.name)) {
      const first = objects.find((x) => x.name === o.name)!;
      if (first.parent !== o.receptacle && !first.alsoIn?.includes(o.receptacle)) (first.alsoIn ??= []).push(o.receptacle);
      continue;
    }
    placed.add(o.name);
    objects.push(objectSpec(o.name, o.receptacle));
  }
  addMissingGoalObjects(row, objects, receptacles, unknownContents, inferred);

  const spec: GameSpec = {
    id: key,
    split: row.split,
    seed: hashSeed(`alfworld-paper:${key}`),
    roomType,
    floorplan,
    receptacles: receptacles.sort(byDisplayOrder),
    locations: receptacles.map((_, i) => i + 1),
    objects: objects.sort(byDisplayOrder),
    goal: { text: walk.goal, taskType: row.task_type, obj: row.target_obj, recep: row.destination, toggle: row.toggle_target },
  };
  const task: TaskRef = { env: ENV_NAME, split: row.split, id: key, taskType: row.task_type, seed: spec.seed };
  return { task, gameFile: row.game_file, spec, inferred };
}

function objectSpec(name: string, parent: string): ObjectSpec {
  const { cls, num } = splitName(name);
  return { name, cls, num, parent, pickupable: !FIXED_OBJECTS.has(cls), toggleable: TOGGLEABLE.has(cls) };
}

/** Adds the target objects (two for pick-two) and the lamp a goal needs when the walk saw too few. */
function addMissingGoalObjects(row: PaperRow, objects: ObjectSpec[], receptacles: ReceptacleSpec[], unknown: readonly string[], inferred: string[]): void {
  const spec = TASK_SPECS[row.task_type];
  const need = (cls: string, count: number, fits: (r: ReceptacleSpec) => boolean) => {
    const have = objects.filter((o) => o.cls === cls);
    for (let k = have.length; k < count; k++) {
      // The real game had it where the walk recorded nothing definite: there first (where it fits,
      // else anywhere such), so that no recorded observation changes; else where it fits.
      const host = receptacles.find((r) => unknown.includes(r.name) && fits(r)) ?? receptacles.find((r) => unknown.includes(r.name)) ?? receptacles.find(fits);
      if (!host) throw new PaperRowError(`row ${row.game_file}`, `the goal needs a ${cls} and no receptacle of the scene can hold one`);
      if (unknown.includes(host.name) && !host.openable && OPENABLE.has(host.cls)) {
        // Found open with nothing recorded yet holding an unseen object: it had a door and stood open.
        host.openable = true;
        host.open = true;
        const note = inferred.indexOf(`${host.name} was found open with nothing recorded: taken as doorless and empty`);
        inferred.splice(note, 1, `${host.name} starts open and its contents were not recorded`);
      }
      const num = Math.max(0, ...objects.filter((o) => o.cls === cls).map((o) => o.num)) + 1;
      objects.push(objectSpec(`${cls} ${num}`, host.name));
      inferred.push(`${cls} ${num} added in ${host.name}: the goal needs it and the walk did not see it`);
    }
  };
  need(row.target_obj, spec.two ? 2 : 1, (r) => canContain(r.cls, row.target_obj) && r.cls !== row.destination);
  if (spec.light && row.toggle_target) need(row.toggle_target, 1, (r) => (FIXED_PLACEMENT[row.toggle_target] ?? []).includes(r.cls));
}
