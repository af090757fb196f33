// The "game file": an immutable description of one generated ALFWorld game (layout, initial object
// placement, goal). Generation is seeded; the same (split, task type, seed) always gives the same game.
import type { TaskType } from '../world/tasks.js';
import type { RoomType } from '../world/vocab.js';

export interface ReceptacleSpec {
  name: string;
  cls: string;
  num: number;
  /** Whether this instance opens (some drawers do not). Closed at the start when it does, unless `open`. */
  openable: boolean;
  /** An openable receptacle that starts open (real scenes have some: fridges, microwaves). */
  open?: boolean;
  /** Index into `GameSpec.locations`; co-located receptacles share it. */
  loc: number;
}

export interface ObjectSpec {
  name: string;
  cls: string;
  num: number;
  /** Receptacle it starts in. */
  parent: string;
  /**
   * Further receptacles that list it at the start: real scenes state inReceptacle for an object and
   * for what it sits in (a keychain in a safe on a dresser; a sink in a sink basin on a countertop).
   * Taking it removes it from all of them.
   */
  alsoIn?: string[];
  pickupable: boolean;
  toggleable: boolean;
}

export interface GoalSpec {
  /** The goal sentence without the trailing period, e.g. "put a hot potato in sinkbasin". */
  text: string;
  taskType: TaskType;
  /** Lower-cased class names, as the pddl_params of traj_data.json. */
  obj: string;
  recep: string;
  toggle: string;
}

export interface GameSpec {
  id: string;
  split: string;
  seed: number;
  roomType: RoomType;
  /** AI2-THOR floorplan number (kitchen 1–30, living room 201–230, …). */
  floorplan: number;
  /** Receptacles in display order (class alphabetical, numbers descending). */
  receptacles: ReceptacleSpec[];
  /** Classic-grammar label of each location (`You arrive at loc N.`). */
  locations: number[];
  /** Objects in display order. */
  objects: ObjectSpec[];
  goal: GoalSpec;
}
