// identify-life-stages-2 as the real task builds it: the variation's fruit tree at every life stage,
// outside, in "self watering flower pot N" with N from the real shuffle of 1–9.
import { describe, expect, it } from 'vitest';
import { loadTask } from './setup.js';
import { lifeStagePotNumbers } from './task-draws.js';

describe('identify-life-stages-2', () => {
  it('numbers the pots as the real shuffle does (apple: 4, 6, 7, 9, 5; avocado: 2, 7, 8, 1, 5)', () => {
    expect(lifeStagePotNumbers(0)).toEqual([4, 6, 7, 9, 5]);
    expect(lifeStagePotNumbers(2)).toEqual([2, 7, 8, 1, 5]);
  });

  it('shows each stage and scores the four focuses in order; a wrong focus fails', () => {
    const { game, build } = loadTask('identify-life-stages-2', 0);
    expect(build.description).toBe('Your task is to focus on the life stages of the apple plant, starting from earliest to latest. The plants are located outside.');
    game.step('teleport to outside');
    expect(game.look()).toContain('\n\ta self watering flower pot 5 (containing a dead apple tree, soil, a substance called water)\n');
    expect(game.step('focus on apple seed').observation).toBe('You focus on the apple seed.');
    expect(game.step('focus on apple tree in the seedling stage').observation).toBe('You focus on the apple tree.');
    game.step('focus on apple tree in the adult stage');
    expect(game.step('focus on apple tree in the reproducing stage').score).toBe(100);
    const wrong = loadTask('identify-life-stages-2', 0).game;
    wrong.step('teleport to outside');
    expect(wrong.step('focus on dead apple tree').score).toBe(-100);
  });
});

describe('identify-life-stages-2 distractors', () => {
  it("adds every life stage of one distractor animal (the tree's real shuffle seed: apple 0 → blue jay, avocado 1 → turtle, pear 6 → beaver)", () => {
    const outside = (v: number) => {
      const { game } = loadTask('identify-life-stages-2', v);
      game.step('teleport to outside');
      return game.look();
    };
    expect(outside(0)).toContain('\ta blue jay egg\n\ta hatchling blue jay\n\ta juvenile blue jay\n\ta adult blue jay\n\ta dead blue jay\n');
    expect(outside(2)).toContain('\ta shovel\n\ta turtle egg\n\ta hatchling turtle\n\ta juvenile turtle\n\ta adult turtle\n\ta dead turtle\n');
    expect(outside(9)).toContain('\ta baby beaver\n\ta juvenile beaver\n\ta adult beaver\n\ta dead beaver\n');
    const { game } = loadTask('identify-life-stages-2', 0);
    game.step('teleport to outside');
    expect(game.step('focus on blue jay egg').score).toBe(-100);
  });
});

describe('identify-life-stages-1', () => {
  it('orders the animals as the real task shuffles them (0: turtle, 1: wolf) with their real stage counts and names', () => {
    expect(loadTask('identify-life-stages-1', 0).build.description).toBe('Your task is to focus on the 4 life stages of the turtle, starting from earliest to latest.');
    expect(loadTask('identify-life-stages-1', 1).build.description).toBe('Your task is to focus on the 3 life stages of the wolf, starting from earliest to latest.');
    const toad = [...Array(14).keys()].map((v) => loadTask('identify-life-stages-1', v).build.description).find((d) => d.includes('toad'));
    expect(toad).toBe('Your task is to focus on the 3 life stages of the common toad, starting from earliest to latest.');
  });

  it('places one animal of the kind and five distractors (the real shuffle; one of the same kind is left out)', () => {
    const outside = (v: number) => {
      const { game } = loadTask('identify-life-stages-1', v);
      game.step('teleport to outside');
      return game.look();
    };
    // wolf (task animal 13): its shuffle draws beaver, blue jay, dove, elephant, parrot
    expect(outside(1)).toContain('\tthe agent\n\ta substance called air\n\tan axe\n\ta baby beaver\n\ta blue jay egg\n\ta dove egg\n\ta baby elephant\n');
    expect(outside(1)).toContain('\ta parrot egg\n\ta baby wolf\n\ta substance called wood\n');
    // a toad sorts by its name (common toad) and shows the frog cycle's names; a moth the butterfly's
    expect(outside(11)).toContain('\tan axe\n\ta frog egg\n\ta dove egg\n');
    expect(outside(0)).toContain('\tthe ground\n\ta butterfly egg\n\ta parrot egg\n');
  });

  it('the animal ages every 20 ticks and is scored at each stage in turn; a focus at the wrong stage fails', () => {
    const { game } = loadTask('identify-life-stages-1', 1);
    game.step('teleport to outside');
    expect(game.step('focus on baby wolf').observation).toBe('You focus on the baby wolf.');
    game.step('wait');
    expect(game.look()).toContain('\ta baby wolf\n');
    game.step('wait');
    expect(game.look()).toContain('\ta juvenile wolf\n');
    game.step('focus on juvenile wolf');
    for (let i = 0; i < 2; i++) game.step('wait');
    expect(game.step('focus on adult wolf').score).toBe(100);
    const wrong = loadTask('identify-life-stages-1', 1).game;
    wrong.step('teleport to outside');
    wrong.step('focus on baby wolf');
    expect(wrong.step('focus on baby wolf').score).toBe(-100);
  });
});
