// The melting-point tasks on ScienceWorld's grids: object × temperature point × box pair (last
// fastest), subsampled within the train/dev/test parts by scala.util.Random(5); scoring is the real
// sequence thermometer → substance → the box the melting point picks, any other focus failing.
import { describe, expect, it } from 'vitest';
import { loadTask } from './setup.js';
import { subsampleWithinSplits } from './measurement.js';
import { TASKS } from './catalog.js';

/** The kitchen's look-around in a fresh episode (the task's objects are all in the kitchen). */
function kitchenLook(task: 'known' | 'unknown', v: number): string {
  const { game } = loadTask(`measure-melting-point-${task}-substance`, v);
  game.step('teleport to kitchen');
  return game.look();
}

const count = (name: string) => TASKS.find((t) => t.name === name)!.variations;

describe('measure-melting-point grids', () => {
  it('subsamples 875 and 15,000 combinations to the real counts, keeping the split parts apart', () => {
    const known = subsampleWithinSplits([...Array(875).keys()], 0.5);
    expect(known).toHaveLength(count('measure-melting-point-known-substance'));
    expect(known.slice(0, 218).every((i) => i < 437)).toBe(true);
    expect(known.slice(218, 327).every((i) => i >= 437 && i < 656)).toBe(true);
    expect(subsampleWithinSplits([...Array(15000).keys()], 0.02)).toHaveLength(count('measure-melting-point-unknown-substance'));
  });

  it('describes the real task for a variation (known substance 110: mercury, −10.0, green/blue)', () => {
    const { build } = loadTask('measure-melting-point-known-substance', 110);
    expect(build.description).toBe(
      'Your task is to measure the melting point of mercury, which is located around the kitchen. First, focus on the thermometer. Next, focus on the mercury. If the melting point of mercury is above -10.0 degrees celsius, focus on the green box. If the melting point of mercury is below -10.0 degrees celsius, focus on the blue box. The boxes are located around the kitchen. ',
    );
  });

  it('names unknown substances by their state at 10 °C, liquids in a cup, shown bare', () => {
    expect(kitchenLook('unknown', 60)).toContain('(containing liquid unknown substance X)');
    expect(kitchenLook('unknown', 79)).toContain('\n\tsolid unknown substance B\n');
  });

  it('keeps the created name until the state changes (mercury; gallium, then liquid gallium)', () => {
    expect(kitchenLook('known', 110)).toContain('(containing a substance called mercury)');
    const { game } = loadTask('measure-melting-point-known-substance', 148);
    game.step('teleport to kitchen');
    const cup = /a ([a-z ]+) \(containing a substance called gallium\)/.exec(game.look())![1]!;
    game.step(`move ${cup} to stove`);
    game.step('activate stove');
    for (let i = 0; i < 3; i++) game.step('wait');
    // A ceramic cup conducts heat at 0.02: its gallium stays solid on the stove, as recorded.
    expect(game.step('look at stove').observation).toContain('(containing a substance called gallium)');
    game.step('open cupboard');
    game.step(`pour ${cup} into metal pot`); // the cupboard holds another ceramic cup: option 0 is the stove's
    expect(game.step('0').observation).toBe(`You pour the contents of the ${cup} into the metal pot.`);
    game.step('move metal pot to stove');
    game.step('wait');
    expect(game.step('look at stove').observation).toContain('liquid gallium');
  });

  it('scores thermometer → substance → right box as 100, and fails on the wrong box', () => {
    const win = loadTask('measure-melting-point-known-substance', 110).game;
    for (const a of ['teleport to kitchen', 'focus on thermometer', 'focus on mercury']) win.step(a);
    expect(win.step('focus on blue box').score).toBe(100); // mercury melts at −39 °C, below −10
    const lose = loadTask('measure-melting-point-known-substance', 110).game;
    for (const a of ['teleport to kitchen', 'focus on thermometer', 'focus on mercury']) lose.step(a);
    const r = lose.step('focus on green box');
    expect([r.score, r.done]).toEqual([-100, true]);
  });
});

describe('use-thermometer grid and scoring', () => {
  it('describes the real task for a variation (538: wood in the living room, 0.0, yellow/purple)', () => {
    const { build, game } = loadTask('use-thermometer', 538);
    expect(build.description).toBe(
      'Your task is to measure the temperature of wood, which is located around the living room. First, focus on the thermometer. Next, focus on the wood. If the wood temperature is above 0.0 degrees celsius, place it in the yellow box. If the wood temperature is below 0.0 degrees celsius, place it in the purple box. The boxes are located around the living room. ',
    );
    game.step('teleport to living room');
    expect(game.look()).toContain('\n\ta substance called wood\n');
  });

  it('scores the box by the temperature the object has when it lands there', () => {
    const play = (box: 'right' | 'wrong') => {
      const { game } = loadTask('use-thermometer', 240); // unknown substance B, living room, 50.0, red above / green below
      for (const a of ['teleport to kitchen', 'focus on thermometer', 'pick up thermometer', 'teleport to living room', 'focus on unknown substance B']) game.step(a);
      const reading = Number(/(-?\d+) degrees/.exec(game.step('use thermometer on unknown substance B').observation)![1]);
      const below = reading <= 50;
      return game.step(`move unknown substance B to ${(box === 'right') === below ? 'green' : 'red'} box`).score;
    };
    expect(play('right')).toBe(100);
    expect(play('wrong')).toBe(-100);
  });
});
