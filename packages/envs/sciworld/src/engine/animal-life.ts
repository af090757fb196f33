// Animals age as ScienceWorld's do: every tick counts towards the current life stage, whatever
// surrounds the animal, and after the stage's ticks the animal moves to the next one and takes its
// name ("blue jay egg" → "hatchling blue jay"). The dead stage lasts for ever. An animal's `stage`
// is its index into its life cycle (world/animals.ts); animals without a cycle there (bees) keep theirs.
import { ANIMALS, animalStageName, LIFE_CYCLES } from '../world/animals.js';
import { NONE, type Obj, type World } from './world.js';

/** True for an animal whose life cycle this engine runs. */
export const hasLifeCycle = (o: Obj): boolean => o.kind === 'animal' && o.species !== undefined && ANIMALS[o.species] !== undefined;

const isAnimal = (o: Obj) => o.kind === 'animal';

export function ageAnimals(w: World): void {
  for (const o of w.select('animals', isAnimal)) {
    if (o.removed || o.parent === NONE || !hasLifeCycle(o)) continue;
    const stages = LIFE_CYCLES[ANIMALS[o.species!]!.cycle];
    const ticks = stages[o.stage]?.ticks;
    if (ticks === undefined) continue;
    o.stageTicks++;
    if (o.stageTicks < ticks) continue;
    o.stage++;
    o.stageTicks = 0;
    o.shown = animalStageName(o.species!, o.stage);
  }
}
