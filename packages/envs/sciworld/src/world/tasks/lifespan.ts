// The lifespan tasks (longest, shortest, longest then shortest): three animals outside, one from each
// of the real task's long, medium and short lists, in its shuffled order of combinations.
import { JavaRandom, scalaShuffle } from '../../engine/java-random.js';
import { animal } from './spawns.js';
import { decodeLastFastest, type Builder } from './variation.js';

/** Lifespans in years (ours, unconfirmed): only the order matters — every long-lived animal outlives every medium one, and so on. */
export const LIFESPANS: Readonly<Record<string, number>> = {
  'giant tortoise': 150,
  elephant: 70,
  crocodile: 60,
  parrot: 50,
  'brown bear': 30,
  wolf: 14,
  beaver: 12,
  'common toad': 10,
  rabbit: 9,
  chipmunk: 5,
  hedgehog: 4,
  mouse: 2,
  chameleon: 1.5,
  dragonfly: 0.5,
  ant: 0.3,
  butterfly: 0.1,
  moth: 0.08,
};
/** The real task's three animal lists, in its order. */
const LONG = ['giant tortoise', 'parrot', 'elephant', 'crocodile', 'brown bear'];
const MEDIUM = ['beaver', 'wolf', 'chipmunk', 'common toad', 'rabbit'];
const SHORT = ['hedgehog', 'mouse', 'chameleon', 'dragonfly', 'ant'];

/** The 125 (long, medium, short) combinations, enumerated last-fastest and shuffled once by java.util.Random(0), as the real task does. */
const LIFESPAN_COMBOS: ReadonlyArray<readonly [string, string, string]> = scalaShuffle(
  new JavaRandom(0),
  Array.from({ length: 125 }, (_, i) => {
    const [a, b, c] = decodeLastFastest(i, [5, 5, 5]);
    return [LONG[a!]!, MEDIUM[b!]!, SHORT[c!]!] as const;
  }),
);

export function lifespanBuilder(mode: 'longest' | 'shortest' | 'both'): Builder {
  return (v, contents) => {
    const animals = [...LIFESPAN_COMBOS[v]!];
    const byLife = [...animals].sort((x, y) => LIFESPANS[y]! - LIFESPANS[x]!);
    for (const name of animals) {
      const tags = name === byLife[0] ? ['longest'] : name === byLife[2] ? ['shortest'] : [];
      contents.outside.push(animal(name, 0, { tags }));
    }
    const focus = (tag: string) => ({ type: 'focus' as const, match: { tag }, failIfWrong: true });
    const description =
      mode === 'both'
        ? "Your task is to find the animal with the longest life span, then the shortest life span. First, focus on the animal with the longest life span.  Then, focus on the animal with the shortest life span. The animals are in the 'outside' location. "
        : `Your task is to find the animal with the ${mode} life span.  The animals are in the 'outside' location.  Focus on the animal with the ${mode} life span.`;
    const order = mode === 'both' ? [byLife[0]!, byLife[2]!] : [mode === 'longest' ? byLife[0]! : byLife[2]!];
    return {
      description,
      goals: {
        ordered: mode === 'both' ? [focus('longest'), focus('shortest')] : [focus(mode)],
        // ScienceWorld's two: moved anywhere new (done at once if already outside), in the animals' room.
        optional: [
          { type: 'movedAway', unless: 'outside' },
          { type: 'inRoom', room: 'outside' },
        ],
      },
      plan: { kind: 'lifespan', order },
    };
  };
}
