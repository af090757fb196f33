// Property: random valid and random junk inputs over thousands of seeded variations never throw,
// and the world's invariants hold (containment is a tree, scores stay in range, failure ends).
import { describe, expect, it } from 'vitest';
import { Rng } from '@diffworld/env-core';
import { TASKS } from '../world/tasks/catalog.js';
import { isImplemented, loadTask } from '../world/tasks/setup.js';
import type { Game } from './game.js';

const JUNK = ['', '   ', 'focus', 'move to', 'pour into', 'connect to', '0', '99', 'look at', 'use on', 'teleport to', 'go', 'mix', 'open the the', 'ÿ unicode ☃', 'x'.repeat(300)];

function checkInvariants(game: Game): void {
  const w = game.w;
  for (const o of w.objs) {
    if (o.removed) continue;
    if (o.parent !== -1) expect(w.get(o.parent).contents).toContain(o.id);
    for (const c of o.contents) expect(w.get(c).parent).toBe(o.id);
    let p = o.parent;
    let depth = 0;
    while (p !== -1 && depth < 50) (p = w.get(p).parent), depth++;
    expect(depth).toBeLessThan(50);
  }
  expect(w.kind(w.get(w.agentRoom())).category).toBe('room');
}

describe('random play', () => {
  const tasks = TASKS.filter((t) => isImplemented(t.name));
  it('never throws and keeps invariants over 2400+ seeded variations', () => {
    let episodes = 0;
    const rounds = Math.ceil(2400 / tasks.length);
    for (let k = 0; k < rounds; k++) {
      for (const t of tasks) {
        const rng = new Rng(k * 7919 + t.variations);
        const v = rng.int(0, t.variations - 1);
        const { game } = loadTask(t.name, v, rng.bool(0.7) ? 'easy' : 'none', 40);
        for (let s = 0; s < 20 && !game.done; s++) {
          // Valid-action lists are costly to build; draw from them on half of the steps.
          const valid = rng.bool(0.5) ? game.validActions() : [];
          const input = valid.length ? rng.pick(valid) : rng.bool(0.5) ? rng.pick(JUNK) : rng.pick(['wait', 'look around', 'inventory', 'teleport to kitchen', 'focus on agent']);
          const r = game.step(input);
          expect(typeof r.observation).toBe('string');
          expect(r.score).toBeGreaterThanOrEqual(-100);
          expect(r.score).toBeLessThanOrEqual(100);
          if (r.score === -100) expect(r.done).toBe(true);
        }
        checkInvariants(game);
        episodes++;
      }
    }
    expect(episodes).toBe(rounds * tasks.length);
    expect(episodes).toBeGreaterThanOrEqual(2400);
  }, 120_000);
});
