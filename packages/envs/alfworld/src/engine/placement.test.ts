import { describe, expect, it } from 'vitest';
import { Rng } from '@diffworld/env-core';
import { splitName } from './names.js';
import { canHost, pickWeighted, placementRate } from './placement.js';
import { gameForTask, splitTasks } from './splits.js';
import type { GameSpec } from './scene.js';
import { placementCounts } from '../paper/placement.js';
import { readSceneWalk } from '../paper/import.js';
import { readPaperRows } from '../paper/rows.js';
import { paperRowFiles } from '../testing/paper-data.js';
import { PLACEMENT_COUNTS, PLACEMENT_SOURCE } from '../world/placement-counts.js';
import { OPENABLE, canContain } from '../world/vocab.js';

/** The receptacles the generator may put a pick-up-able object of the game in (targets never start in the destination class). */
function hostsOf(spec: GameSpec, cls: string): GameSpec['receptacles'] {
  return spec.receptacles.filter((r) => canContain(r.cls, cls) && !(cls === spec.goal.obj && r.cls === spec.goal.recep));
}

/** Observed and expected (under a weight per receptacle) counts per (object class, receptacle class). */
function tally(games: GameSpec[], weight: (obj: string, rec: string) => number) {
  const observed = new Map<string, Map<string, number>>();
  const expected = new Map<string, Map<string, number>>();
  const add = (m: Map<string, Map<string, number>>, o: string, r: string, x: number) => {
    if (!m.has(o)) m.set(o, new Map());
    m.get(o)!.set(r, (m.get(o)!.get(r) ?? 0) + x);
  };
  for (const g of games) {
    const cls = new Map(g.receptacles.map((r) => [r.name, r.cls]));
    for (const o of g.objects) {
      if (!o.pickupable) continue;
      const hosts = hostsOf(g, o.cls);
      const total = hosts.reduce((s, r) => s + weight(o.cls, r.cls), 0);
      add(observed, o.cls, cls.get(o.parent)!, 1);
      for (const r of hosts) add(expected, o.cls, r.cls, weight(o.cls, r.cls) / total);
    }
  }
  return { observed, expected };
}

/** Total variation between observed and expected receptacle-class shares, averaged over objects (weighted by count). */
function meanTotalVariation(t: ReturnType<typeof tally>): number {
  let sum = 0;
  let n = 0;
  for (const [o, obs] of t.observed) {
    const exp = t.expected.get(o)!;
    const count = [...obs.values()].reduce((a, b) => a + b, 0);
    const classes = new Set([...obs.keys(), ...exp.keys()]);
    let tv = 0;
    for (const c of classes) tv += Math.abs((obs.get(c) ?? 0) - (exp.get(c) ?? 0)) / count;
    sum += (tv / 2) * count;
    n += count;
  }
  return sum / n;
}

describe('placement rates (engine/placement.ts)', () => {
  it('are positive exactly where a class can host the object, and follow the counts', () => {
    expect(placementRate('apple', 'cabinet')).toBe(0); // our vocabulary: no apple starts in a cabinet
    expect(canHost('sidetable', 'desklamp')).toBe(true);
    expect(placementRate('desklamp', 'sidetable')).toBeGreaterThan(0);
    for (const [obj, rec] of PLACEMENT_COUNTS) expect(placementRate(obj, rec) > 0).toBe(canHost(rec, obj));
    // Bread is on countertops and dining tables far more often than in fridges or garbage cans.
    expect(placementRate('bread', 'countertop')).toBeGreaterThan(3 * placementRate('bread', 'garbagecan'));
    // An object class the counts never saw is uniform over its hosts.
    expect(placementRate('plunger', 'cabinet')).toBe(placementRate('plunger', 'cart'));
  });

  it('pickWeighted draws in proportion to the weights and never a zero-weight item', () => {
    const rng = new Rng(5);
    const n = { a: 0, b: 0, c: 0 };
    const w = { a: 1, b: 3, c: 0 };
    for (let i = 0; i < 40_000; i++) n[pickWeighted(rng, ['a', 'b', 'c'] as const, (x) => w[x])]++;
    expect(n.c).toBe(0);
    expect(n.b / n.a).toBeGreaterThan(2.8);
    expect(n.b / n.a).toBeLessThan(3.2);
    expect(() => pickWeighted(rng, ['a'], () => 0)).toThrow(/no item has a positive weight/);
  });
});

describe('generated games place objects where the real games do', () => {
  const games = splitTasks('train')
    .filter((_, i) => i % 2 === 0)
    .map((t) => gameForTask(t));

  it('the placement distribution follows the table, and is far from uniform placement', () => {
    const model = meanTotalVariation(tally(games, placementRate));
    const uniform = meanTotalVariation(tally(games, () => 1));
    console.log(`placement of ${games.length} train games: mean total variation from the table's rates ${model.toFixed(3)}, from uniform placement ${uniform.toFixed(3)}`);
    expect(model).toBeLessThan(0.06);
    expect(uniform).toBeGreaterThan(0.15);
  });

  it('generation stays deterministic per seed', () => {
    const again = splitTasks('train')
      .filter((_, i) => i % 2 === 0)
      .slice(0, 300)
      .map((t) => gameForTask({ ...t }));
    expect(again).toEqual(games.slice(0, 300));
  });
});

describe("the placement counts (world/placement-counts.ts) and the paper's rows", () => {
  const files = paperRowFiles();
  it.skipIf(!files)('the committed table is what scripts/placement-counts.ts derives from the train rows', async () => {
    const train = files!.filter((f) => PLACEMENT_SOURCE.files.some((name) => f.endsWith(`/${name}`)));
    expect(train).toHaveLength(PLACEMENT_SOURCE.files.length);
    const rows = (await Promise.all(train.map((f) => readPaperRows(f)))).flat();
    expect(rows.length).toBe(PLACEMENT_SOURCE.rows);
    expect(placementCounts(rows)).toEqual(PLACEMENT_COUNTS.map((c) => [...c]));
  });

  it.skipIf(!files)('the rates from the train rows predict where the held-out eval games put their objects better than uniform', async () => {
    const evalRows = await readPaperRows(files!.find((f) => f.endsWith('/alfworld_eval_id.jsonl'))!);
    let model = 0;
    let uniform = 0;
    let n = 0;
    for (const [i, row] of evalRows.entries()) {
      const walk = readSceneWalk(row.wm_system_prompt, `eval row ${i + 1}`);
      // Receptacles whose contents the walk records (placement.ts): those that never open, and closed ones.
      const recorded = walk.receptacles.filter((r) => !OPENABLE.has(splitName(r.name).cls) || r.state === 'closed').map((r) => r.name);
      const firstSeen = new Set<string>();
      for (const o of walk.objects) {
        if (firstSeen.has(o.name)) continue;
        firstSeen.add(o.name);
        const obj = splitName(o.name).cls;
        const hosts = recorded.filter((r) => canContain(splitName(r).cls, obj));
        if (!hosts.includes(o.receptacle)) continue;
        const total = hosts.reduce((s, r) => s + placementRate(obj, splitName(r).cls), 0);
        model += Math.log(placementRate(obj, splitName(o.receptacle).cls) / total);
        uniform += Math.log(1 / hosts.length);
        n++;
      }
    }
    console.log(`eval rows: ${n} objects; mean log-likelihood of their receptacle: table ${(model / n).toFixed(3)}, uniform ${(uniform / n).toFixed(3)}`);
    expect(n).toBeGreaterThan(1000);
    // The table fitted on the eval rows themselves reaches -1.80 (the most class-level rates can say); uniform is -2.14.
    expect(model / n).toBeGreaterThan(uniform / n + 0.2);
  });
});
