// Where the paper's real games put each object class, counted from the scene walks of its rows:
// for each (object class, receptacle class), how many objects the walks first listed in a
// receptacle of that class (`seen`), and how many receptacles of that class, with recorded
// contents, the scenes that hold the object class had (`exposure`). seen / exposure is a rate per
// receptacle instance, which does not depend on how many cabinets or drawers a room happens to have.
//
// Only receptacles whose contents a walk records count, on both sides: every receptacle of a class
// that never opens, and a receptacle of an openable class that started closed (the walk opened it).
// One of an openable class found open is left out: a fridge or microwave that started open has its
// contents unrecorded (the walk parses only "On the R, you see …"), and a cabinet, drawer or safe
// found open is either doorless or started open, which the row does not say — counting them would
// make fridges look emptier than they are. An object listed twice (a mug in a coffee machine on a
// countertop) counts where it was first listed.
import { splitName } from '../engine/names.js';
import { OPENABLE } from '../world/vocab.js';
import type { PlacementCount } from '../world/placement-counts.js';
import { readSceneWalk } from './import.js';
import type { PaperRow } from './rows.js';

/** Counts of the rows, one entry per (object class, receptacle class) with exposure, sorted by both names. */
export function placementCounts(rows: readonly PaperRow[], where = 'rows'): PlacementCount[] {
  const seen = new Map<string, number>();
  const exposure = new Map<string, number>();
  const key = (obj: string, rec: string) => `${obj}\u0000${rec}`;
  rows.forEach((row, i) => {
    const walk = readSceneWalk(row.wm_system_prompt, `${where}: row ${i + 1}`);
    const recorded = new Map<string, string>();
    for (const r of walk.receptacles) {
      const cls = splitName(r.name).cls;
      if (!OPENABLE.has(cls) || r.state === 'closed') recorded.set(r.name, cls);
    }
    const first = new Set<string>();
    const classes = new Set<string>();
    for (const o of walk.objects) {
      if (first.has(o.name)) continue;
      first.add(o.name);
      const rec = recorded.get(o.receptacle);
      if (rec === undefined) continue;
      const obj = splitName(o.name).cls;
      classes.add(obj);
      seen.set(key(obj, rec), (seen.get(key(obj, rec)) ?? 0) + 1);
    }
    for (const obj of classes) for (const rec of recorded.values()) exposure.set(key(obj, rec), (exposure.get(key(obj, rec)) ?? 0) + 1);
  });
  const out: PlacementCount[] = [];
  for (const [k, n] of exposure) {
    const [obj, rec] = k.split('\u0000') as [string, string];
    out.push([obj, rec, seen.get(k) ?? 0, n]);
  }
  return out.sort((a, b) => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}
