// The six ALFWorld task types as data: goal templates (alfworld gen/goal_library.py), the room
// types each is valid in (GOALS_VALID), the transform it needs, and the split sizes per type.
import type { Transform } from './rules.js';
import type { RoomType } from './vocab.js';

export const TASK_TYPES = [
  'pick_and_place_simple',
  'look_at_obj_in_light',
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
  'pick_two_obj_and_place',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export interface TaskTypeSpec {
  /** ALFWorld's numeric id (alfred_tw_env.py TASK_TYPES). */
  id: number;
  /** Goal templates; `{obj}`, `{recep}`, `{toggle}` are filled with lower-cased class names. */
  templates: readonly string[];
  rooms: readonly RoomType[];
  transform?: Transform;
  /** Two distinct target objects must end up in the same destination receptacle. */
  two?: boolean;
  /** Goal is holding the object while a lamp of class `toggle` is on, next to it. */
  light?: boolean;
}

export const TASK_SPECS: Readonly<Record<TaskType, TaskTypeSpec>> = {
  pick_and_place_simple: {
    id: 1,
    templates: ['put a {obj} in {recep}', 'put some {obj} on {recep}'],
    rooms: ['kitchen', 'livingroom', 'bathroom', 'bedroom'],
  },
  look_at_obj_in_light: {
    id: 2,
    templates: ['look at {obj} under the {toggle}', 'examine the {obj} with the {toggle}'],
    rooms: ['livingroom', 'bedroom'],
    light: true,
  },
  pick_clean_then_place_in_recep: {
    id: 3,
    templates: ['put a clean {obj} in {recep}', 'clean some {obj} and put it in {recep}'],
    rooms: ['kitchen', 'bathroom'],
    transform: 'clean',
  },
  pick_heat_then_place_in_recep: {
    id: 4,
    templates: ['put a hot {obj} in {recep}', 'heat some {obj} and put it in {recep}'],
    rooms: ['kitchen'],
    transform: 'heat',
  },
  pick_cool_then_place_in_recep: {
    id: 5,
    templates: ['put a cool {obj} in {recep}', 'cool some {obj} and put it in {recep}'],
    rooms: ['kitchen'],
    transform: 'cool',
  },
  pick_two_obj_and_place: {
    id: 6,
    templates: ['put two {obj} in {recep}', 'find two {obj} and put them in {recep}'],
    rooms: ['kitchen', 'livingroom', 'bathroom', 'bedroom'],
    two: true,
  },
};

export const SPLITS = ['train', 'eval_in_distribution', 'eval_out_of_distribution'] as const;
export type AlfworldSplit = (typeof SPLITS)[number];

/**
 * Games per task type and split. train totals 3,553 and the eval splits 140 / 134 as in
 * alfworld/data/README.md; the per-type breakdown follows the ALFWorld paper's table
 * (valid_unseen: pick 24, look 18, clean 31, heat 23, cool 21, two 17).
 */
export const SPLIT_COUNTS: Readonly<Record<AlfworldSplit, Readonly<Record<TaskType, number>>>> = {
  train: {
    pick_and_place_simple: 790,
    look_at_obj_in_light: 308,
    pick_clean_then_place_in_recep: 650,
    pick_heat_then_place_in_recep: 459,
    pick_cool_then_place_in_recep: 533,
    pick_two_obj_and_place: 813,
  },
  eval_in_distribution: {
    pick_and_place_simple: 35,
    look_at_obj_in_light: 13,
    pick_clean_then_place_in_recep: 27,
    pick_heat_then_place_in_recep: 16,
    pick_cool_then_place_in_recep: 25,
    pick_two_obj_and_place: 24,
  },
  eval_out_of_distribution: {
    pick_and_place_simple: 24,
    look_at_obj_in_light: 18,
    pick_clean_then_place_in_recep: 31,
    pick_heat_then_place_in_recep: 23,
    pick_cool_then_place_in_recep: 21,
    pick_two_obj_and_place: 17,
  },
};

export function isTaskType(value: string): value is TaskType {
  return (TASK_TYPES as readonly string[]).includes(value);
}
