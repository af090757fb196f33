// chemistry-mix on ScienceWorld's grid (eight, four and four recipes per place, kitchen then
// workshop) with the real mixing sentences; only the focus on the product is scored.
import { describe, expect, it } from 'vitest';
import { loadTask } from './setup.js';

describe('chemistry-mix', () => {
  it('variation 3: sodium acetate in the kitchen; solid acetic acid goes in a cup; the real sentence', () => {
    const { build, game } = loadTask('chemistry-mix', 3);
    expect(build.description).toBe(
      "Your task is to use chemistry to create the substance 'sodium acetate'. A recipe and some of the ingredients might be found near the kitchen. When you are done, focus on the sodium acetate.",
    );
    game.step('teleport to kitchen');
    expect(game.look()).toContain('\n\tA recipe titled instructions to make sodium acetate\n');
    expect(game.step('mix glass cup').observation).toBe('That container is empty, so there are no items to mix.');
    for (const a of ['pick up glass cup', 'put acetic acid in glass cup', 'put sodium bicarbonate in glass cup']) game.step(a);
    expect(game.step('mix glass cup').observation).toBe('Sodium bicarbonate and acetic acid mix to produce sodium acetate.');
    expect(game.step('focus on sodium acetate').score).toBe(100);
  });

  it('places the later groups by the real order (28: sugar water, 30: rust, both in the workshop)', () => {
    expect(loadTask('chemistry-mix', 28).build.description).toContain("'sugar water'. A recipe and some of the ingredients might be found near the workshop.");
    expect(loadTask('chemistry-mix', 30).build.description).toContain("'rust'. A recipe and some of the ingredients might be found near the workshop.");
  });
});

describe('paint tasks', () => {
  it('place the extra paints as the real grid does (6: a closed paint cupboard in the art studio)', () => {
    const { game } = loadTask('chemistry-mix-paint-secondary-color', 6);
    game.step('teleport to art studio');
    expect(game.look()).toContain('\n\ta paint cupboard. The paint cupboard door is closed. \n');
    expect(game.step('open paint cupboard').observation).toBe('The paint cupboard is now open.');
    expect(game.look()).toContain('In the paint cupboard is: a wood cup (containing red paint), a wood cup (containing blue paint), a wood cup (containing yellow paint).');
  });

  it('in the workshop, with a mixing container of its own (29: a desk of tin cups)', () => {
    const { game } = loadTask('chemistry-mix-paint-secondary-color', 29);
    game.step('teleport to workshop');
    expect(game.look()).toContain('a desk. On the desk is: a drawer, a tin cup (containing red paint), a tin cup (containing blue paint), a tin cup (containing yellow paint).');
  });
});
