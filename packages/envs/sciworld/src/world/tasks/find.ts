// The find tasks (living thing, non-living thing, plant, animal): the real grid of ten sets of living
// things × five box rooms × six colours; focus on the thing, then move it to the box.
import { sub, type RoomName, type Spawn } from '../layout.js';
import type { Match } from '../../engine/goals.js';
import { JavaRandom, scalaShuffle } from '../../engine/java-random.js';
import { findPeaHeight, findPotNumbers } from './task-draws.js';
import { REAL_PEA_TRAITS } from './genetics.js';
import { TASK_ANIMALS, animal } from './spawns.js';
import { decodeLastFastest, type Builder, type Contents, type FindWhat } from './variation.js';

const COLORS = ['red', 'green', 'blue', 'orange', 'yellow', 'purple'];
const FIND_BOX_ROOMS: RoomName[] = ['kitchen', 'bathroom', 'living room', 'bedroom', 'workshop'];

const FIND_PLANTS = ['apple', 'avocado', 'banana', 'cherry', 'lemon', 'orange', 'peach', 'pea'];

/**
 * Three animals outside (at their first life stage), three potted plants and two empty pots in the
 * greenhouse, the pots numbered by the real task's shuffle (findPotNumbers).
 */
function livingWorld(contents: Contents, v: number, what: FindWhat, set: number): void {
  const animals = scalaShuffle(new JavaRandom(set), TASK_ANIMALS).slice(0, 3);
  contents.outside.push(...animals.map((a) => animal(a)));
  const species = scalaShuffle(new JavaRandom(set), FIND_PLANTS).slice(0, 3);
  const numbers = findPotNumbers(v, FIND_MODES.indexOf(what), set);
  contents.greenhouse.push(
    ...species.map(
      (s, i): Spawn => ({
        kind: 'flower pot',
        name: `flower pot ${numbers[i]}`,
        contents: [{ kind: 'plant', species: s, stage: 2, ...(s === 'pea' ? { genes: findPeaHeight(v, FIND_MODES.indexOf(what), set, REAL_PEA_TRAITS) } : {}) }, sub('soil')],
      }),
    ),
    ...numbers.slice(3, 5).map((n): Spawn => ({ kind: 'flower pot', name: `flower pot ${n}` })),
  );
}

/** The find tasks in the order the real engine constructs them. */
const FIND_MODES: FindWhat[] = ['living', 'nonliving', 'plant', 'animal'];

const FIND_THING: Record<FindWhat, { words: string; match: Match }> = {
  living: { words: 'a(n) living thing', match: { living: true } },
  nonliving: { words: 'a(n) non-living thing', match: { nonLiving: true } },
  plant: { words: 'a(n) plant', match: { kind: 'plant' } },
  animal: { words: 'a(n) animal', match: { kind: 'animal' } },
};

export function findBuilder(what: FindWhat): Builder {
  return (v, contents) => {
    // The real grid: 10 sets of living things × 5 box rooms × 6 colours, the colour fastest.
    const [set, ri, ci] = decodeLastFastest(v, [10, FIND_BOX_ROOMS.length, COLORS.length]);
    livingWorld(contents, v, what, set!);
    const box = `${COLORS[ci!]} box`;
    const room = FIND_BOX_ROOMS[ri!]!;
    contents[room].push({ kind: 'box', name: box, tags: ['box'] });
    const { words, match } = FIND_THING[what];
    return {
      description: `Your task is to find ${words}. First, focus on the thing. Then, move it to the ${box} in the ${room}.`,
      goals: {
        ordered: [
          { type: 'focus', match, failIfWrong: true },
          { type: 'inside', match: { ...match, focused: true }, container: { tag: 'box' } },
        ],
        // ScienceWorld's four: the focused thing carried, a room with an open door, moved anywhere new, the box's room.
        optional: [{ type: 'inside', match: { ...match, focused: true }, container: { kind: 'agent' } }, { type: 'openDoorHere' }, { type: 'movedAway' }, { type: 'inRoom', room }],
      },
      plan: { kind: 'find', what, box, boxRoom: room },
    };
  };
}
