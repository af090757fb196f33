// Golden suite, the world as rendered at the start: starting observations and every room's
// look-around against the real recordings, exactly and up to the order of same-named siblings (the
// real engine's own order for those differs between its runs; tie-order.ts). Floors only rise.
import { describe, expect, it } from 'vitest';
import { flattenLookAround, taskSnapshot, WALK_ROOMS } from '../harness/wm-prompt.js';
import { loadTask } from '../world/tasks/setup.js';
import { formatShare, measureGolden, type GoldenReport } from './measure.js';
import { readRecordedTasks, recordingsDir } from './recordings.js';
import { matchesUpToTieOrder, tieGroups } from './tie-order.js';

const WORLD_FLOORS = {
  startObservations: 115,
  startObservationsUpToTieOrder: 120,
  rooms: 1086,
  roomsUpToTieOrder: 1200,
  wholeTasks: 17,
  wholeTasksUpToTieOrder: 120,
} as const;

const dir = recordingsDir();

describe.skipIf(!dir)('golden world: the real starting observations and room look-arounds', () => {
  let report: GoldenReport;
  it('measures the 120 recorded task ids', () => {
    report = measureGolden(readRecordedTasks(dir!), []);
  });
  for (const key of Object.keys(WORLD_FLOORS) as (keyof typeof WORLD_FLOORS)[]) {
    it(`${key}: at least ${WORLD_FLOORS[key]}`, () => {
      console.log(`golden world ${key}: ${formatShare(report[key])}`);
      expect(report[key].matched).toBeGreaterThanOrEqual(WORLD_FLOORS[key]);
    });
  }
});

describe('tie order (no recordings needed)', () => {
  it('finds the art studio paint cups as the only run of same-named siblings with different texts', () => {
    const { game } = loadTask('boil', 12);
    game.step('teleport to art studio');
    const groups = tieGroups(game.w, game.w.agentRoom());
    expect(groups.map((g) => g.map((o) => game.w.describe(o)))).toEqual([['a wood cup (containing red paint)', 'a wood cup (containing blue paint)', 'a wood cup (containing yellow paint)']]);
  });

  it('accepts any order of a run, rejects other texts, and restores the world order', () => {
    const { game } = loadTask('boil', 12);
    game.step('teleport to art studio');
    const render = () => flattenLookAround(game.look());
    const text = render();
    const swapped = text.replace(/a wood cup \(containing red paint\) a wood cup \(containing blue paint\)/, 'a wood cup (containing blue paint) a wood cup (containing red paint)');
    expect(swapped).not.toBe(text);
    expect(matchesUpToTieOrder(game.w, game.w.agentRoom(), render, swapped)).toBe(true);
    expect(render()).toBe(text);
    expect(matchesUpToTieOrder(game.w, game.w.agentRoom(), render, swapped.replace('blue paint', 'green paint'))).toBe(false);
  });
});

describe('the scene walk (no recordings needed)', () => {
  it('visits the rooms in the paper order, a tick each: outside is ten ticks in, so the life-stage trees are a stage on', () => {
    const s = taskSnapshot({ env: 'sciworld', split: 'test', id: 'identify-life-stages-2_v0', taskType: 'identify-life-stages-2', seed: 0 });
    expect(Object.keys(s.roomMap)).toEqual([...WALK_ROOMS]);
    expect(s.initialObservation).toContain('This room is called the hallway.');
    expect(s.roomMap.outside).toContain('a self watering flower pot 4 (containing a apple tree in the seedling stage, soil)');
    expect(s.roomMap.outside).toContain('a self watering flower pot 7 (containing a apple tree in the reproducing stage. On the apple tree you see: a flower. , soil)');
    expect(s.roomMap.bathroom).toContain('A drain, which is closed');
    const { game } = loadTask('identify-life-stages-2', 0);
    game.step('teleport to outside');
    expect(game.look()).toContain('a self watering flower pot 4 (containing a apple seed, soil, a substance called water)');
  });
});
