// Inputs the game answers with "No known action matches that input." take no time: the world does
// not tick (ScienceWorld's parser never produces them, so nothing runs). With the stove on, every
// tick warms it, so a tick shows in the temperatures.
import { describe, expect, it } from 'vitest';
import { loadTask } from '../world/tasks/setup.js';
import { TEXT } from '../world/text.js';
import type { Game } from './game.js';

function heatingKitchen(): Game {
  const { game } = loadTask('boil', 0, 'easy');
  for (const a of ['teleport to kitchen', 'activate stove']) expect(game.step(a).valid, a).toBe(true);
  return game;
}

const temperatures = (game: Game) => game.w.objs.map((o) => o.temperature);

describe('unknown inputs take no time', () => {
  it('a tick shows: wait1 warms the stove', () => {
    const game = heatingKitchen();
    const before = temperatures(game);
    game.step('wait1');
    expect(temperatures(game)).not.toEqual(before);
  });

  it('an unparseable input does not tick', () => {
    const game = heatingKitchen();
    const before = temperatures(game);
    expect(game.step('xyzzy plugh').observation).toBe(TEXT.unknownAction);
    expect(temperatures(game)).toEqual(before);
  });

  it('connect and disconnect without electrical actions (the easy preset) do not tick', () => {
    const game = heatingKitchen();
    const [a, b] = game
      .validActions()
      .filter((x) => x.startsWith('look at '))
      .map((x) => x.slice('look at '.length));
    const before = temperatures(game);
    for (const input of [`connect ${a} to ${b}`, `disconnect ${a}`]) expect(game.step(input).observation).toBe(TEXT.unknownAction);
    expect(temperatures(game)).toEqual(before);
  });
});
