// Electrical circuits: terminals are nodes, wires/switches/conductive objects and loads are edges
// between their two terminals, links are edges. A load is powered when a source that is on reaches
// the load's cathode from its anode and the load's anode reaches the source's cathode (ScienceWorld's
// PolarizedElectricalComponent: the anode must lead to ground, the cathode to voltage), qualitatively.
import { NONE } from './world.js';
import { material } from '../world/materials.js';
import { World, type Obj } from './world.js';

function terminalsOf(w: World, o: Obj): Obj[] {
  return o.contents.map((c) => w.get(c)).filter((c) => c.terminal !== undefined);
}

/** Whether a component lets current through (switches when on, other things by material). */
function conducts(w: World, o: Obj): boolean {
  const e = w.kind(o).electrical;
  if (e?.role === 'switch') return o.isOn;
  if (e?.role === 'wire' || e?.role === 'load') return true;
  return o.material ? material(o.material).conductive : false;
}

/**
 * Whether a source drives current now: a battery always, an activatable generator while on, an
 * outdoor one (solar panel, wind generator) while outside — which also switches it on or off, as
 * ScienceWorld's tick does (listings say "which is on").
 */
function drives(w: World, src: Obj): boolean {
  const k = w.kind(src);
  if (k.electrical?.outdoors) {
    src.isOn = outdoors(w, src);
    return src.isOn;
  }
  return k.activatable ? src.isOn : true;
}

/** In the outside room, directly or through open containers. */
function outdoors(w: World, o: Obj): boolean {
  for (let p = o.parent; p !== NONE; p = w.get(p).parent) {
    const c = w.get(p);
    if (w.kind(c).category === 'room') return w.name(c) === 'outside';
    if (!w.canSeeInside(c) || c.kind === 'agent') return false;
  }
  return false;
}

export function solveCircuit(w: World): void {
  const components = w.components.filter((o) => !o.removed);
  const loads = components.filter((o) => w.kind(o).electrical?.role === 'load');
  const sources = components.filter((o) => w.kind(o).electrical?.role === 'source' && drives(w, o));
  const wired = components.some((c) => terminalsOf(w, c).some((t) => t.links.length > 0));
  if (!wired) {
    for (const l of loads) (l.isOn = false), (l.poweredBy = -1);
    return;
  }
  // Adjacency over terminal ids; `skip` removes one component's internal edge.
  const neighbours = (t: Obj, skip: Obj | undefined): number[] => {
    const out = [...t.links];
    const owner = w.get(t.parent);
    if (owner !== skip && w.kind(owner).electrical?.role !== 'source' && conducts(w, owner)) {
      for (const s of terminalsOf(w, owner)) if (s.id !== t.id) out.push(s.id);
    }
    return out;
  };
  const reach = (from: Obj, to: Obj, skip: Obj | undefined): boolean => {
    const seen = new Set<number>([from.id]);
    const stack = [from.id];
    while (stack.length) {
      const id = stack.pop()!;
      if (id === to.id) return true;
      for (const n of neighbours(w.get(id), skip)) if (!seen.has(n)) seen.add(n), stack.push(n);
    }
    return false;
  };
  for (const load of loads) {
    const [t1, t2] = terminalsOf(w, load);
    const source = sources.find((src) => {
      const [anode, cathode] = terminalsOf(w, src);
      if (!t1 || !t2 || !anode || !cathode) return false;
      // t1 is the load's anode, t2 its cathode.
      return reach(anode, t2, load) && reach(t1, cathode, load);
    });
    load.isOn = source !== undefined;
    load.poweredBy = source ? source.id : -1;
  }
}
