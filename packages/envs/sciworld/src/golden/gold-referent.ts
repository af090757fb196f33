// The name ScienceWorld's gold agent uses for a thing (PathFinder.getObjUniqueReferent over
// InputParser.getAllUniqueReferents): every thing in the agent's room, recursively and hidden ones
// included, with its referents (container forms too) lower-cased and sorted; referents that more
// than one thing has are dropped unless that leaves a thing none; then each thing takes its first
// referent, and a thing whose choice another shares moves on to its next one, ten rounds over.
// (The real one then picks at random for ten more rounds; a thing still sharing its name after ten
// rounds is reported as `shared`, the real gold path then answers the ambiguity prompt with 0.)
import { NONE, type Obj, type World } from '../engine/world.js';
import { ownReferents } from '../engine/referents.js';

export interface GoldName {
  referent: string;
  /** Another thing ends up with the same name (the real agent's name is then partly random). */
  shared: boolean;
}

/** Every thing under the room, open or closed, its doors and the rooms they lead to. */
function everythingIn(w: World, room: number): Obj[] {
  const out: Obj[] = [];
  const walk = (o: Obj) => {
    for (const c of o.contents) {
      out.push(w.get(c));
      walk(w.get(c));
    }
  };
  walk(w.get(room));
  for (const d of w.doorsOf(room)) out.push(d, w.get(w.otherSide(d, room)));
  return out;
}

function rawReferents(w: World, o: Obj, room: number): string[] {
  if (o.rooms) {
    const other = w.name(w.get(w.otherSide(o, room)));
    return ['door', `door to ${other}`, `${other} door`];
  }
  const own = ownReferents(w, o);
  const out = new Set(own);
  if (o.parent !== NONE) {
    const c = w.get(o.parent);
    const cs = c.kind === 'agent' ? ['inventory'] : ownReferents(w, c);
    for (const r of own) for (const x of cs) out.add(`${r} in ${x}`).add(`${r} on ${x}`);
  }
  return [...out].map((r) => r.toLowerCase()).filter((r) => r.length > 1);
}

export function goldNames(w: World, room = w.agentRoom()): Map<number, GoldName> {
  const objs = everythingIn(w, room);
  const lists = objs.map((o) => [...new Set(rawReferents(w, o, room))].sort());
  const freq = new Map<string, number>();
  for (const refs of lists) for (const r of refs) freq.set(r, (freq.get(r) ?? 0) + 1);
  const filtered = lists.map((refs) => {
    const unique = refs.filter((r) => freq.get(r) === 1);
    return unique.length ? unique : refs;
  });
  const index = filtered.map(() => 0);
  for (let round = 0; round < 10; round++) {
    const chosen = new Map<string, number>();
    filtered.forEach((refs, i) => chosen.set(refs[index[i]!]!, (chosen.get(refs[index[i]!]!) ?? 0) + 1));
    filtered.forEach((refs, i) => {
      if (chosen.get(refs[index[i]!]!)! > 1) index[i] = (index[i]! + 1) % refs.length;
    });
  }
  const chosen = new Map<string, number>();
  filtered.forEach((refs, i) => chosen.set(refs[index[i]!]!, (chosen.get(refs[index[i]!]!) ?? 0) + 1));
  const out = new Map<number, GoldName>();
  objs.forEach((o, i) => {
    const referent = filtered[i]![index[i]!]!;
    out.set(o.id, { referent, shared: chosen.get(referent)! > 1 });
  });
  return out;
}
