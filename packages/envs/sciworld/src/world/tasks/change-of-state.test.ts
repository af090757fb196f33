// The change-of-state tasks score as ScienceWorld's TaskChangeOfState: three ordered goals (focus,
// first state, second state; change-the-state: any state, then a different one) and the real
// optional goals, each worth (1 / (ordered + 1)) / optional of the score.
import { describe, expect, it } from 'vitest';
import { loadTask } from './setup.js';

describe('change-of-state scoring', () => {
  it.each([
    ['boil', 15],
    ['melt', 15],
    ['freeze', 5],
    ['change-the-state-of-matter-of', 18],
  ])('%s has the real three ordered and %i optional goals', (task, optional) => {
    const { game } = loadTask(task, 0, 'easy');
    expect(game.goals.spec.ordered).toHaveLength(3);
    expect(game.goals.spec.optional).toHaveLength(optional);
  });

  it('boil: near the water, water alone in the pot, focus, pot on the stove, stove on, lighter carried', () => {
    const { game } = loadTask('boil', 0, 'easy');
    const score = (a: string) => game.step(a).score;
    const unit = 100 / 4 / 15;
    for (const a of ['teleport to kitchen', 'open cupboard', 'pick up metal pot', 'move metal pot to sink']) expect(score(a)).toBe(0);
    expect(score('activate sink')).toBe(Math.round(2 * unit));
    expect(score('focus on water')).toBe(Math.round(200 / 3 + 2 * unit));
    game.step('pick up metal pot');
    expect(score('move metal pot to stove')).toBe(Math.round(200 / 3 + 3 * unit));
    expect(score('activate stove')).toBe(Math.round(200 / 3 + 4 * unit));
    expect(score('pick up lighter')).toBe(Math.round(200 / 3 + 5 * unit));
    // Leaving the kitchen keeps what was scored.
    expect(score('teleport to outside')).toBe(Math.round(200 / 3 + 5 * unit));
  });

  it('change-the-state: any state right after the focus, then a different one', () => {
    const { game } = loadTask('change-the-state-of-matter-of', 0, 'easy');
    game.step('teleport to kitchen');
    for (const a of ['open cupboard', 'pick up metal pot', 'move metal pot to sink', 'activate sink', 'deactivate sink']) game.step(a);
    const r = game.step('focus on water');
    expect(game.goals.idx).toBe(2);
    expect(r.done).toBe(false);
  });
});

describe('change-of-state substances start as ScienceWorld makes them', () => {
  // The first melt variation whose world holds this material outside the base house.
  const find = (m: string) => {
    for (let v = 0; v < 30; v++) {
      const { game } = loadTask('melt', v, 'easy');
      const o = game.w.objs.find((x) => x.material === m && x.tags.length > 0);
      if (o) return { w: game.w, o };
    }
    throw new Error(`no melt variation with ${m}`);
  };
  it("ice cream's cup starts at the ice cream's −15 °C (a liquid cup takes its contents' temperature)", () => {
    const { w, o } = find('ice cream');
    expect(o.temperature).toBe(-15);
    expect(w.get(o.parent).temperature).toBe(-15);
  });
  it.each(['apple juice', 'chocolate'])('%s starts at 10 °C in the fridge (the fridge cools it from there)', (m) => {
    const { w, o } = find(m);
    expect(o.temperature).toBe(10);
    expect(w.roomOf(o.id)).toBe(w.room('kitchen'));
  });
});
