// The texts the real engine could print for one world state. ScienceWorld sorts a listing by name
// and leaves same-named siblings in the iteration order of a hash set of objects whose hash is the
// JVM identity hash — an order that differs between runs of the real engine itself (the recordings
// show the same task's three paint cups in different orders in its starting observation and in its
// room map). A text "matches up to tie order" when some order of every run of same-named siblings
// makes ours identical to it.
import type { Obj, World } from '../engine/world.js';

/** Runs of same-named siblings, in visible listings under `root`, whose descriptions differ. */
export function tieGroups(w: World, root: number): Obj[][] {
  const groups: Obj[][] = [];
  const walk = (o: Obj) => {
    const byName = new Map<string, Obj[]>();
    for (const c of w.sortedContents(o)) {
      const name = w.name(c);
      const run = byName.get(name);
      if (run) run.push(c);
      else byName.set(name, [c]);
      if (w.canSeeInside(c)) walk(c);
    }
    for (const run of byName.values()) if (run.length > 1 && new Set(run.map((c) => w.describe(c, true))).size > 1) groups.push(run);
  };
  walk(w.get(root));
  return groups;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((first, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]));
}

/** Orders of all runs together: one permutation per run, every combination (undefined above `cap`). */
function tieOrders(groups: Obj[][], cap: number): Map<number, number>[] | undefined {
  let count = 1;
  for (const g of groups) {
    for (let k = 2; k <= g.length; k++) count *= k;
    if (count > cap) return undefined;
  }
  let orders: Map<number, number>[] = [new Map()];
  for (const g of groups) {
    const next: Map<number, number>[] = [];
    for (const perm of permutations(g)) {
      for (const base of orders) {
        const m = new Map(base);
        perm.forEach((o, rank) => m.set(o.id, rank));
        next.push(m);
      }
    }
    orders = next;
  }
  return orders;
}

/**
 * True when `render()` equals `target` for some order of the same-named runs under `root` (at most
 * `cap` orders are tried; above that only creation order is). The world's own order is restored.
 */
export function matchesUpToTieOrder(w: World, root: number, render: () => string, target: string, cap = 5040): boolean {
  if (render() === target) return true;
  const orders = tieOrders(tieGroups(w, root), cap);
  if (!orders) return false;
  const own = w.tieOrder;
  try {
    for (const rank of orders) {
      w.tieOrder = (a, b) => (rank.get(a.id) ?? a.id) - (rank.get(b.id) ?? b.id);
      if (render() === target) return true;
    }
    return false;
  } finally {
    w.tieOrder = own;
  }
}
