// ScienceWorld's optional goals as the measure-melting-point tasks list them (25, each worth
// (1 / 4) / 25 of the score): latching goals (moved away from where the goal first saw the agent,
// a thermometer use after the goal first looked), prerequisites between optional goals (rooms
// with a heater after the task's rooms; a use after the substance was heated) and on the ordered
// goals (the substance on a heater only once it is focused).
import { describe, expect, it } from 'vitest';
import { loadTask } from '../world/tasks/setup.js';

describe('measure-melting-point optional goals', () => {
  it('score step by step as the real goal list gives them', () => {
    const { game } = loadTask('measure-melting-point-known-substance', 0, 'easy');
    expect(game.goals.spec.optional).toHaveLength(25);
    const trace = [
      // near the thermometer, in the substance's and the boxes' room (kitchen), then in a room with a heater (kitchen)
      ['teleport to kitchen', 4, '1001110000000000000000000'],
      ['pick up thermometer', 5, '1101110000000000000000000'],
      ['focus on thermometer', 38, '1101110000000000000000000'],
      ['open fridge', 38, '1101110000000000000000000'],
      ['focus on chocolate', 72, '1101110000000000000000000'],
      // the first use after the goal was first evaluated
      ['use thermometer on chocolate', 73, '1101110001000000000000000'],
      // moved away from the kitchen (where the goal first saw the agent); the foundry has a heater
      ['teleport to foundry', 75, '1111110101000000000000000'],
      ['teleport to kitchen', 75, '1111110101000000000000000'],
      ['pick up chocolate', 76, '1111110111000000000000000'],
      // the focused chocolate on the stove
      ['move chocolate to stove', 78, '1111110111010000000100000'],
      // the stove on, and the chocolate 20 °C warmer than when first seen
      ['activate stove', 80, '1111110111011000000100001'],
      // a use after the heating
      ['use thermometer on chocolate', 81, '1111110111111000000100001'],
    ] as const;
    for (const [action, score, done] of trace) {
      expect([action, game.step(action).score, game.goals.optionalDone.map((b) => (b ? 1 : 0)).join('')]).toEqual([action, score, done]);
    }
  });

  it('the unknown-substance task lists the same 25', () => {
    const { game } = loadTask('measure-melting-point-unknown-substance', 0, 'easy');
    expect(game.goals.spec.optional).toHaveLength(25);
  });
});

describe('use-thermometer optional goals', () => {
  it("ScienceWorld's eight, step by step", () => {
    const { game } = loadTask('use-thermometer', 0, 'easy');
    expect(game.goals.spec.optional).toHaveLength(8);
    const trace = [
      ['teleport to kitchen', 3, '10000000'],
      ['pick up thermometer', 6, '11000000'],
      ['focus on thermometer', 40, '11000000'],
      // moved away from the kitchen, into the object's room
      ['teleport to living room', 46, '11110000'],
      ['focus on unknown substance b', 79, '11110000'],
      ['use thermometer on unknown substance b', 82, '11110010'],
      ['pick up unknown substance b', 85, '11110110'],
      // the boxes' room (after the object's room)
      ['teleport to bathroom', 89, '11111110'],
      ['move unknown substance b to green box', 100, '11111110'],
    ] as const;
    for (const [action, score, done] of trace) {
      expect([action, game.step(action).score, game.goals.optionalDone.map((b) => (b ? 1 : 0)).join('')]).toEqual([action, score, done]);
    }
  });
});

describe('find tasks optional goals', () => {
  it("ScienceWorld's four: carried after the focus, a room with an open door, moved anywhere new, the box's room", () => {
    const { game } = loadTask('find-animal', 0, 'easy');
    const trace = [
      ['teleport to outside', 8, '0100'],
      ['focus on blue jay', 58, '0100'],
      ['pick up blue jay', 67, '1100'],
      ['teleport to kitchen', 83, '1111'],
      ['move blue jay to red box', 100, '1111'],
    ] as const;
    for (const [action, score, done] of trace) {
      expect([action, game.step(action).score, game.goals.optionalDone.map((b) => (b ? 1 : 0)).join('')]).toEqual([action, score, done]);
    }
  });
});

const traceOf = (task: string, steps: ReadonlyArray<readonly [string, number, string]>) => {
  const { game } = loadTask(task, 0, 'easy');
  return steps.map(([action]) => [action, game.step(action).score, game.goals.optionalDone.map((b) => (b ? 1 : 0)).join('')]);
};

describe('inclined-plane and lifespan optional goals', () => {
  it("inclined planes: ScienceWorld's ten (workshop; per plane: block on it, stopwatch on, off, then read)", () => {
    const steps = [
      ['teleport to workshop', 10, '1100000000'],
      ['move wood block to plane b', 15, '1110000000'],
      // reading before the stopwatch was stopped does not count
      ['look at stopwatch', 15, '1110000000'],
      ['activate stopwatch', 20, '1111000000'],
      ['wait1', 20, '1111000000'],
      ['deactivate stopwatch', 25, '1111100000'],
      ['look at stopwatch', 30, '1111110000'],
      ['move wood block to plane c', 35, '1111111000'],
      ['activate stopwatch', 40, '1111111100'],
      ['deactivate stopwatch', 45, '1111111110'],
      ['look at stopwatch', 50, '1111111111'],
    ] as const;
    expect(traceOf('inclined-plane-determine-angle', steps)).toEqual(steps.map((s) => [...s]));
  });

  it('lifespan: moved away from where the goal first saw the agent, then outside', () => {
    const steps = [
      ['look around', 0, '00'],
      ['teleport to kitchen', 25, '10'],
      ['teleport to outside', 50, '11'],
    ] as const;
    expect(traceOf('lifespan-longest-lived', steps)).toEqual(steps.map((s) => [...s]));
  });
});

describe('electrical tasks optional goals', () => {
  it("ScienceWorld's seven for test-conductivity: moved away, near the thing, both its terminals wired, wires joining it to a source and a bulb, and a source to a bulb", () => {
    // The first variation whose thing lies in the kitchen (the agent moves from there to the workshop).
    let v = 0;
    const inKitchen = (g: ReturnType<typeof loadTask>['game']) => g.w.name(g.w.get(g.w.roomOf(g.w.objs.find((o) => o.tags.includes('target'))!.id))) === 'kitchen';
    while (!inKitchen(loadTask('test-conductivity', v, 'easy').game)) v++;
    const { game } = loadTask('test-conductivity', v, 'easy');
    expect(game.goals.spec.optional).toHaveLength(7);
    const w = game.w;
    const jar = w.objs.find((o) => o.tags.includes('target'))!;
    game.step('teleport to kitchen');
    game.step(`focus on ${w.name(jar)}`);
    game.step(`pick up ${w.name(jar)}`);
    game.step('teleport to workshop');
    const done = () => game.goals.optionalDone.map((b) => (b ? 1 : 0)).join('');
    expect(done()).toBe('1100000');
    const wires = w.objs.filter((o) => o.kind === 'wire');
    const term = (o: typeof jar, i: number) => w.terminalLabel(w.get(o.contents.filter((c) => w.get(c).terminal)[i]!));
    const battery = w.objs.find((o) => o.kind === 'battery')!;
    game.step(`connect ${term(jar, 0)} to ${term(wires[0]!, 0)}`);
    expect(done()).toBe('1110000');
    game.step(`connect ${term(wires[0]!, 1)} to ${term(battery, 0)}`);
    expect(done()).toBe('1110100');
    game.step(`connect ${term(jar, 1)} to ${term(wires[1]!, 0)}`);
    expect(done()).toBe('1111100');
  });
});

describe('chemistry tasks optional goals', () => {
  it('chemistry-mix: moved away, near each ingredient, them alone in one container, near the product, the recipe read', () => {
    const steps = [
      ['teleport to kitchen', 8, '010000'],
      ['pick up recipe', 8, '010000'],
      ['read recipe', 17, '010001'],
      ['open cupboard', 17, '010001'],
      ['pick up metal pot', 17, '010001'],
      // the kitchen's glass jar is closed, as ScienceWorld's GlassJar is created
      ['open glass jar', 17, '010001'],
      ['move sodium chloride to metal pot', 17, '010001'],
      ['move metal pot to sink', 17, '010001'],
      // water runs in: near it, and salt and water alone in the pot
      ['activate sink', 33, '011101'],
      ['deactivate sink', 33, '011101'],
      ['pick up metal pot', 33, '011101'],
      ['mix metal pot', 42, '011111'],
      ['focus on salt water', 100, '011111'],
    ] as const;
    expect(traceOf('chemistry-mix', steps)).toEqual(steps.map((s) => [...s]));
  });

  it('paint: the focus on the product alone is ordered; moving, the inputs, them alone in the jug, the product are optional', () => {
    const steps = [
      ['teleport to art studio', 20, '01100'],
      ['pour blue paint into jug', 20, '01100'],
      ['pour yellow paint into jug', 30, '01110'],
      ['mix jug', 40, '01111'],
      ['focus on green paint', 100, '01111'],
    ] as const;
    expect(traceOf('chemistry-mix-paint-secondary-color', steps)).toEqual(steps.map((s) => [...s]));
  });
});

describe('plant tasks optional goals', () => {
  it.each([
    ['grow-plant', 17],
    ['grow-fruit', 28],
    ['mendelian-genetics-known-plant', 50],
    ['mendelian-genetics-unknown-plant', 50],
  ])("%s lists ScienceWorld's %i", (task, n) => {
    expect(loadTask(task, 0, 'easy').game.goals.spec.optional).toHaveLength(n);
  });

  it('genetics: near the jar, in the greenhouse, soil and water in the six pots and a seed stage count at once; the bee goals wait for two reproducing plants', () => {
    const { game } = loadTask('mendelian-genetics-known-plant', 0, 'easy');
    game.step('teleport to greenhouse');
    const done = game.goals.optionalDone;
    // jar near (0), greenhouse (3), soil (5–10) and water (11–16) in the six pots, ≥1 and ≥2 seeds (23, 27)
    expect(done.flatMap((d, i) => (d ? [i] : []))).toEqual([0, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 23, 27]);
    game.step('open bee hive');
    expect(done[47]).toBe(false);
  });
});

describe('life-stage tasks optional goals', () => {
  it('stay goals count goal evaluations: two per step-loop iteration (looks included), one more per pass in which another goal completes', () => {
    const steps = [
      // in the room: one pass, plus one because "outside" completed → 2, then after the tick → 3
      ['teleport to outside', 4, '01000'],
      ['look around', 4, '01000'],
      ['look around', 4, '01000'],
      ['look around', 4, '01000'],
      // the tenth evaluation
      ['look around', 8, '01100'],
      // wait1 is two iterations: four evaluations
      ['wait1', 8, '01100'],
      ['wait1', 12, '01110'],
      ['wait1', 12, '01110'],
      // moved away from where the goal first saw the agent (outside); leaving resets the stays
      ['teleport to kitchen', 16, '11110'],
      ['teleport to outside', 16, '11110'],
    ] as const;
    expect(traceOf('identify-life-stages-2', steps)).toEqual(steps.map((s) => [...s]));
  });
});
