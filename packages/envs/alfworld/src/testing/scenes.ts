// Hand-built scenes for transcript tests (and for users who want a fixed game): a compact
// description expands into a full GameSpec.
import type { TaskType } from '../world/tasks.js';
import { byDisplayOrder, splitName } from '../engine/names.js';
import type { GameSpec } from '../engine/scene.js';
import { FIXED_OBJECTS, OPENABLE, TOGGLEABLE, type RoomType } from '../world/vocab.js';

export interface SceneSketch {
  /** Receptacle names grouped by location, e.g. [["cabinet 1", "cabinet 2"], ["countertop 1"]]. */
  locations: string[][];
  /** Object name → receptacle name. */
  objects: Record<string, string>;
  goal: { taskType: TaskType; text: string; obj: string; recep?: string; toggle?: string };
  /** Receptacles of an openable class that have no door. */
  doorless?: string[];
  roomType?: RoomType;
}

export function buildScene(s: SceneSketch): GameSpec {
  const receptacles = s.locations.flatMap((names, loc) =>
    names.map((name) => {
      const { cls, num } = splitName(name);
      return { name, cls, num, loc, openable: OPENABLE.has(cls) && !(s.doorless ?? []).includes(name) };
    }),
  );
  const objects = Object.entries(s.objects).map(([name, parent]) => {
    const { cls, num } = splitName(name);
    if (!receptacles.some((r) => r.name === parent)) throw new Error(`buildScene: ${name} is in unknown receptacle ${parent}`);
    return { name, cls, num, parent, pickupable: !FIXED_OBJECTS.has(cls), toggleable: TOGGLEABLE.has(cls) };
  });
  return {
    id: 'hand-built',
    split: 'test',
    seed: 0,
    roomType: s.roomType ?? 'kitchen',
    floorplan: 0,
    receptacles: receptacles.sort(byDisplayOrder),
    locations: s.locations.map((_, i) => 10 + i),
    objects: objects.sort(byDisplayOrder),
    goal: { taskType: s.goal.taskType, text: s.goal.text, obj: s.goal.obj, recep: s.goal.recep ?? '', toggle: s.goal.toggle ?? '' },
  };
}
