// The grow tasks on ScienceWorld's grid (seed kind × place, then three pot cases) and the shovel.
import { describe, expect, it } from 'vitest';
import { loadTask } from './setup.js';

describe('grow-plant and grow-fruit', () => {
  it('variation 51: banana seeds in the greenhouse, pots with soil; 98: orange in the living room, empty pots', () => {
    const a = loadTask('grow-plant', 51);
    expect(a.build.description).toContain('grow a banana plant from seed. Seeds can be found in the greenhouse.');
    a.game.step('teleport to greenhouse');
    expect(a.game.look()).toContain('\n\ta flower pot 1 (containing soil, a substance called water)\n');
    expect(a.game.look()).toContain('a seed jar (containing a banana seed, a banana seed, a banana seed, a banana seed, a banana seed)');
    const b = loadTask('grow-fruit', 98);
    expect(b.build.description).toContain('grow a orange. This will require growing several plants');
    b.game.step('teleport to greenhouse');
    expect(b.game.look()).toContain('\n\ta flower pot 1 (containing a substance called water)\n');
  });

  it('case 1 leaves a heap of soil; the shovel digs more from the ground', () => {
    const { game } = loadTask('grow-plant', 121); // peach, workshop, empty pots and one soil
    game.step('teleport to greenhouse');
    expect(game.look()).toContain('\n\tsoil\n');
    const shovel = game.w.objs.find((o) => o.kind === 'shovel')!;
    game.step(`teleport to ${game.w.name(game.w.get(game.w.roomOf(shovel.id)))}`);
    game.step('pick up shovel');
    game.step('teleport to outside');
    expect(game.step('use shovel on ground').observation).toBe('You dig a hole in the ground, and place the soil nearby.');
    expect(game.step('use shovel on axe').observation).toBe("I'm not sure how to use those two things together.");
  });
});
