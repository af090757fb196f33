// mendelian-genetics-known-plant on ScienceWorld's grid: trait × dominant/recessive × pot set × box
// pair; six flower pots numbered by the real shuffle; only the focus on the answering box is scored.
import { describe, expect, it } from 'vitest';
import { loadTask } from './setup.js';
import { mendelPotNumbers } from './task-draws.js';

describe('mendelian-genetics-known-plant', () => {
  it('variation 0: tall plant height, red (dominant) / green (recessive), pots 1 3 4 5 7 8', () => {
    const { build, game } = loadTask('mendelian-genetics-known-plant', 0);
    expect(build.description).toBe(
      'Your task is to determine whether tall plant height is a dominant or recessive trait in the pea plant. If the trait is dominant, focus on the red box. If the trait is recessive, focus on the green box. ',
    );
    expect([...mendelPotNumbers(0, 0, 'known')].sort()).toEqual([1, 3, 4, 5, 7, 8]);
    game.step('teleport to greenhouse');
    expect(game.step('focus on red box').score).toBe(100);
  });

  it('variation 49 asks about the recessive wrinkly seed shape; the dominant box fails', () => {
    const { build, game } = loadTask('mendelian-genetics-known-plant', 49);
    expect(build.description).toContain('whether wrinkly seed shape is a dominant or recessive trait');
    game.step('teleport to greenhouse');
    expect(game.step('focus on green box').score).toBe(-100);
  });
});

describe('mendelian-genetics-unknown-plant', () => {
  it('variation 109: large flower size of the unknown E plant (recessive), pots 1 3 4 5 7 8', () => {
    const { build, game } = loadTask('mendelian-genetics-unknown-plant', 109);
    expect(build.description).toBe(
      'Your task is to determine whether large flower size is a dominant or recessive trait in the unknown E plant. If the trait is dominant, focus on the green box. If the trait is recessive, focus on the blue box. ',
    );
    expect([...mendelPotNumbers(109, 1, 'unknown')].sort()).toEqual([1, 3, 4, 5, 7, 8]);
    game.step('teleport to greenhouse');
    expect(game.step('focus on blue box').score).toBe(100);
  });
});

describe('pea seeds', () => {
  it('are named by their drawn seed shape and colour (variation 0: round green and wrinkly green; the real order varies by run)', () => {
    const { game } = loadTask('mendelian-genetics-known-plant', 0);
    game.step('teleport to greenhouse');
    expect(game.look()).toContain('a seed jar (containing a round green pea seed, a wrinkly green pea seed)');
  });
});

describe('mendelian-genetics-unknown-plant seeds', () => {
  it('names each seed by its seed shape and colour as the real draws make them (E: both, D: shape only)', () => {
    const greenhouseJar = (v: number) => {
      const { game } = loadTask('mendelian-genetics-unknown-plant', v);
      game.step('teleport to greenhouse');
      return /a seed jar \(containing ([^)]*)\)/.exec(game.look())![1]!.split(', ').sort();
    };
    expect(greenhouseJar(0)).toEqual(['a round brown unknown E seed', 'a square blue unknown E seed']);
    expect(greenhouseJar(109)).toEqual(['a round brown unknown E seed', 'a round brown unknown E seed']);
    expect(greenhouseJar(388)).toEqual(['a ovate unknown D seed', 'a spherical unknown D seed']);
    expect(greenhouseJar(407)).toEqual(['a spherical unknown D seed', 'a spherical unknown D seed']);
  });

  it('the traits a seed cannot show leave it plain (C), and a seed still answers to its plain name', () => {
    const v = 2 * 120; // plant C's first variation
    const { game } = loadTask('mendelian-genetics-unknown-plant', v);
    game.step('teleport to greenhouse');
    expect(game.look()).toContain('a seed jar (containing a unknown C seed, a unknown C seed)');
    expect(game.step('pick up unknown C seed').observation).not.toBe('No known action matches that input.');
  });
});

describe('mendelian-genetics-unknown-plant plants', () => {
  it('a grown parent shows its drawn leaves and flower as the real run did (variation 109: linear leaves, a small flower)', () => {
    const { game } = loadTask('mendelian-genetics-unknown-plant', 109);
    game.step('teleport to greenhouse');
    game.step('move unknown E seed to flower pot 1');
    game.step('0');
    for (let i = 0; i < 3; i++) game.step('wait');
    expect(game.look()).toContain('a flower pot 1 (containing soil, a unknown E plant in the reproducing stage with linear leaves. On the unknown E plant you see: a small flower. ');
  });
});
