// ALFWorld's vocabulary as typed data (facts from alfworld gen/constants.py, shared/reference §1.4):
// which receptacle may hold which object class, which classes are openable / heatable / coolable /
// cleanable / toggleable / sliceable, and the per-room-type receptacle and object inventories the
// procedural generator draws from. The engine never names a class; it reads these tables.

/** Display class names are the lower-cased ALFRED class names ("sinkbasin", "desklamp"). */
export type ClassName = string;

export const ROOM_TYPES = ['kitchen', 'livingroom', 'bedroom', 'bathroom'] as const;
export type RoomType = (typeof ROOM_TYPES)[number];

/** AI2-THOR floorplan numbers per room type; numbers 1–6 are the held-out test floorplans. */
export const FLOORPLAN_BASE: Readonly<Record<RoomType, number>> = { kitchen: 0, livingroom: 200, bedroom: 300, bathroom: 400 };
/**
 * ALFRED's scene split, as numbers within each room type (kitchen 10 = FloorPlan10, living room
 * 19 = FloorPlan219, …): valid_unseen (ALFWorld's eval_out_of_distribution) is one held-out
 * floorplan per room type; tests_unseen holds two more per type that no ALFWorld split uses; train
 * and valid_seen (eval_in_distribution) share the other 27. The paper's train and valid_seen rows
 * use only floorplans of that shared set.
 */
export const UNSEEN_FLOORPLANS: Readonly<Record<RoomType, readonly number[]>> = { kitchen: [10], livingroom: [19], bedroom: [8], bathroom: [24] };
const TEST_UNSEEN_FLOORPLANS: Readonly<Record<RoomType, readonly number[]>> = { kitchen: [9, 29], livingroom: [15, 26], bedroom: [15, 25], bathroom: [4, 25] };
const seen = (t: RoomType) => range(1, 30).filter((n) => !UNSEEN_FLOORPLANS[t].includes(n) && !TEST_UNSEEN_FLOORPLANS[t].includes(n));
export const SEEN_FLOORPLANS: Readonly<Record<RoomType, readonly number[]>> = { kitchen: seen('kitchen'), livingroom: seen('livingroom'), bedroom: seen('bedroom'), bathroom: seen('bathroom') };

function range(lo: number, hi: number): number[] {
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

const TABLETOP = [
  'alarmclock', 'apple', 'baseballbat', 'basketball', 'book', 'bowl', 'box', 'bread', 'butterknife', 'candle', 'cd',
  'cellphone', 'cloth', 'creditcard', 'cup', 'dishsponge', 'glassbottle', 'egg', 'fork', 'kettle', 'keychain', 'knife',
  'ladle', 'laptop', 'lettuce', 'mug', 'newspaper', 'pan', 'papertowelroll', 'pen', 'pencil', 'peppershaker', 'plate', 'pot',
  'potato', 'remotecontrol', 'saltshaker', 'soapbar', 'soapbottle', 'spatula', 'spoon', 'spraybottle', 'statue',
  'tennisracket', 'tissuebox', 'toiletpaper', 'tomato', 'vase', 'watch', 'wateringcan', 'winebottle',
  'handtowel',
] as const;
const SEATING = ['basketball', 'book', 'box', 'cellphone', 'cloth', 'creditcard', 'keychain', 'laptop', 'newspaper', 'pillow', 'remotecontrol'] as const;
const FURNITURE = [
  'alarmclock', 'basketball', 'book', 'bowl', 'box', 'candle', 'cd', 'cellphone', 'cloth', 'creditcard', 'cup',
  'glassbottle', 'keychain', 'laptop', 'mug', 'newspaper', 'pen', 'pencil', 'plate', 'remotecontrol', 'spraybottle',
  'statue', 'tennisracket', 'tissuebox', 'toiletpaper', 'vase', 'watch', 'wateringcan', 'winebottle',
] as const;

/** canContain(receptacle class) — VAL_RECEPTACLE_OBJECTS restricted to static receptacles, slices dropped. */
export const CAN_CONTAIN: Readonly<Record<ClassName, readonly ClassName[]>> = {
  coffeemachine: ['mug'],
  microwave: ['apple', 'bowl', 'bread', 'cup', 'egg', 'glassbottle', 'mug', 'plate', 'potato', 'tomato'],
  stoveburner: ['kettle', 'pan', 'pot'],
  fridge: ['apple', 'bowl', 'bread', 'cup', 'egg', 'glassbottle', 'lettuce', 'mug', 'pan', 'plate', 'pot', 'potato', 'tomato', 'winebottle'],
  sofa: SEATING,
  armchair: SEATING,
  ottoman: SEATING,
  dresser: FURNITURE,
  desk: [...FURNITURE, 'soapbottle'],
  laundryhamper: ['cloth'],
  bed: ['baseballbat', 'basketball', 'book', 'cellphone', 'laptop', 'newspaper', 'pillow', 'tennisracket'],
  toilet: ['candle', 'cloth', 'dishsponge', 'newspaper', 'papertowelroll', 'soapbar', 'soapbottle', 'spraybottle', 'tissuebox', 'toiletpaper', 'handtowel'],
  toiletpaperhanger: ['toiletpaper'],
  towelholder: ['towel'],
  handtowelholder: ['handtowel'],
  cart: ['candle', 'cloth', 'dishsponge', 'mug', 'papertowelroll', 'plunger', 'soapbar', 'soapbottle', 'spraybottle', 'statue', 'tissuebox', 'toiletpaper', 'vase', 'handtowel'],
  bathtubbasin: ['cloth', 'dishsponge', 'soapbar', 'handtowel'],
  sinkbasin: [
    'apple', 'bowl', 'butterknife', 'cloth', 'cup', 'dishsponge', 'egg', 'glassbottle', 'fork', 'kettle', 'knife', 'ladle',
    'lettuce', 'mug', 'pan', 'plate', 'pot', 'potato', 'soapbar', 'spatula', 'spoon', 'tomato', 'handtowel',
  ],
  cabinet: [
    'book', 'bowl', 'box', 'candle', 'cd', 'cloth', 'cup', 'dishsponge', 'glassbottle', 'kettle', 'ladle', 'mug', 'newspaper',
    'pan', 'peppershaker', 'plate', 'plunger', 'pot', 'saltshaker', 'soapbar', 'soapbottle', 'spraybottle', 'tissuebox',
    'toiletpaper', 'vase', 'wateringcan', 'winebottle', 'handtowel',
  ],
  diningtable: TABLETOP,
  coffeetable: TABLETOP,
  sidetable: TABLETOP,
  countertop: TABLETOP,
  shelf: [
    'alarmclock', 'book', 'bowl', 'box', 'candle', 'cd', 'cellphone', 'cloth', 'creditcard', 'cup', 'dishsponge', 'glassbottle',
    'kettle', 'keychain', 'mug', 'newspaper', 'papertowelroll', 'pen', 'pencil', 'peppershaker', 'plate', 'pot', 'remotecontrol',
    'saltshaker', 'soapbar', 'soapbottle', 'spraybottle', 'statue', 'tissuebox', 'toiletpaper', 'vase',
    'watch', 'wateringcan', 'winebottle', 'handtowel',
  ],
  drawer: [
    'book', 'butterknife', 'candle', 'cd', 'cellphone', 'cloth', 'creditcard', 'dishsponge', 'fork', 'keychain', 'knife',
    'ladle', 'newspaper', 'pen', 'pencil', 'peppershaker', 'remotecontrol', 'saltshaker', 'soapbar', 'soapbottle', 'spatula',
    'spoon', 'spraybottle', 'tissuebox', 'toiletpaper', 'watch', 'wateringcan', 'handtowel',
  ],
  garbagecan: [
    'apple', 'bread', 'cd', 'cloth', 'dishsponge', 'egg', 'lettuce', 'newspaper', 'papertowelroll', 'pen', 'pencil', 'potato',
    'soapbar', 'soapbottle', 'spraybottle', 'tissuebox', 'toiletpaper', 'tomato', 'winebottle', 'handtowel',
  ],
  safe: ['cd', 'cellphone', 'creditcard', 'keychain', 'statue', 'vase', 'watch'],
  tvstand: ['tissuebox'],
  toaster: [],
};

/** OPENABLE_CLASS_LIST (Box is a movable receptacle, a plain object in text games). */
export const OPENABLE: ReadonlySet<ClassName> = new Set(['fridge', 'cabinet', 'microwave', 'drawer', 'safe']);
/** Classes whose every instance has a door (some cabinets, drawers and safes have none). */
export const ALWAYS_DOORED: ReadonlySet<ClassName> = new Set(['fridge', 'microwave']);
/** The classes the reference responder treats as openable (it includes box). */
export const RESPONDER_OPENABLE: ReadonlySet<ClassName> = new Set(['cabinet', 'drawer', 'fridge', 'microwave', 'safe', 'box']);

export const HEATABLE: ReadonlySet<ClassName> = new Set(['apple', 'bread', 'cup', 'egg', 'mug', 'plate', 'potato', 'tomato']);
export const COOLABLE: ReadonlySet<ClassName> = new Set(['apple', 'bowl', 'bread', 'cup', 'egg', 'lettuce', 'mug', 'pan', 'plate', 'pot', 'potato', 'tomato', 'winebottle']);
export const CLEANABLE: ReadonlySet<ClassName> = new Set([
  'apple', 'bowl', 'butterknife', 'cloth', 'cup', 'dishsponge', 'egg', 'fork', 'kettle', 'knife', 'ladle', 'lettuce', 'mug',
  'pan', 'plate', 'pot', 'potato', 'soapbar', 'spatula', 'spoon', 'tomato',
]);
export const TOGGLEABLE: ReadonlySet<ClassName> = new Set(['desklamp', 'floorlamp']);
/** ALFRED's movable receptacles that text games carry as plain objects (isReceptacleObject). */
export const RECEPTACLE_OBJECTS: ReadonlySet<ClassName> = new Set(['bowl', 'box', 'cup', 'mug', 'pan', 'plate', 'pot']);
export const SLICEABLE: ReadonlySet<ClassName> = new Set(['apple', 'bread', 'egg', 'lettuce', 'potato', 'tomato']);
export const SHARP: ReadonlySet<ClassName> = new Set(['knife', 'butterknife']);

/** Objects that show up in receptacle lists but can never be picked up (lamps, scenery). */
export const FIXED_OBJECTS: ReadonlySet<ClassName> = new Set([
  'desklamp', 'floorlamp', 'houseplant', 'mirror', 'sink', 'bathtub', 'lightswitch', 'television',
  // Scenery the real scenes list inside receptacles (shared/reference §1.4).
  'blinds', 'curtains', 'window', 'painting', 'poster', 'showerdoor', 'showerglass', 'chair', 'footstool', 'laundryhamperlid', 'stoveknob',
]);

/** Where lamps and scenery stand (they are objects inside receptacles, as in the game files). */
export const FIXED_PLACEMENT: Readonly<Record<ClassName, readonly ClassName[]>> = {
  desklamp: ['desk', 'sidetable', 'dresser', 'shelf'],
  floorlamp: ['sidetable', 'coffeetable', 'dresser', 'desk'],
  houseplant: ['diningtable', 'countertop', 'coffeetable', 'sidetable', 'shelf', 'dresser'],
  mirror: ['countertop'],
  sink: ['countertop'],
  television: ['tvstand', 'dresser'],
};

/** How many of a receptacle class a floorplan of this room type has: [min, max]; min 0 = optional. */
export type ReceptacleSpec = readonly [ClassName, number, number];

export interface RoomSpec {
  receptacles: readonly ReceptacleSpec[];
  /** Pick-up-able object classes this room type stocks. */
  objects: readonly ClassName[];
  /** Lamps and scenery this room type may have: [class, probability present]. */
  fixed: readonly (readonly [ClassName, number])[];
}

export const ROOMS: Readonly<Record<RoomType, RoomSpec>> = {
  kitchen: {
    receptacles: [
      ['cabinet', 4, 16], ['countertop', 1, 3], ['drawer', 2, 10], ['fridge', 1, 1], ['microwave', 1, 1], ['sinkbasin', 1, 2],
      ['stoveburner', 2, 4], ['coffeemachine', 1, 1], ['garbagecan', 1, 1], ['diningtable', 0, 1], ['toaster', 1, 1], ['shelf', 0, 3],
    ],
    objects: [
      'apple', 'bread', 'butterknife', 'cup', 'dishsponge', 'egg', 'fork', 'glassbottle', 'kettle', 'knife', 'ladle', 'lettuce',
      'mug', 'pan', 'peppershaker', 'plate', 'pot', 'potato', 'saltshaker', 'soapbottle', 'spatula', 'spoon', 'tomato',
      'winebottle', 'bowl', 'creditcard', 'cellphone', 'papertowelroll', 'statue', 'vase',
    ],
    fixed: [['houseplant', 0.4]],
  },
  livingroom: {
    receptacles: [
      ['armchair', 0, 2], ['coffeetable', 1, 2], ['diningtable', 0, 1], ['drawer', 0, 6], ['garbagecan', 1, 1], ['sidetable', 1, 3],
      ['sofa', 1, 2], ['tvstand', 0, 1], ['cabinet', 0, 4], ['dresser', 0, 1], ['shelf', 0, 8], ['ottoman', 0, 1], ['safe', 0, 1],
    ],
    objects: [
      'box', 'book', 'cellphone', 'creditcard', 'keychain', 'laptop', 'newspaper', 'pillow', 'remotecontrol', 'statue', 'vase',
      'watch', 'tissuebox', 'plate', 'bowl', 'wateringcan', 'candle', 'cd', 'pen', 'pencil',
    ],
    fixed: [['desklamp', 0.5], ['floorlamp', 0.6], ['houseplant', 0.5], ['television', 0.7]],
  },
  bedroom: {
    receptacles: [
      ['bed', 1, 1], ['desk', 0, 2], ['drawer', 2, 8], ['dresser', 0, 1], ['garbagecan', 1, 1], ['shelf', 0, 6], ['sidetable', 0, 2],
      ['armchair', 0, 1], ['safe', 0, 1], ['laundryhamper', 0, 1], ['cabinet', 0, 2],
    ],
    objects: [
      'alarmclock', 'baseballbat', 'basketball', 'book', 'bowl', 'cd', 'cellphone', 'creditcard', 'keychain', 'laptop', 'mug',
      'pen', 'pencil', 'pillow', 'tennisracket', 'watch', 'vase', 'statue', 'cloth', 'tissuebox',
    ],
    fixed: [['desklamp', 0.8], ['floorlamp', 0.3]],
  },
  bathroom: {
    receptacles: [
      ['bathtubbasin', 0, 1], ['cabinet', 2, 4], ['countertop', 1, 1], ['drawer', 0, 4], ['garbagecan', 1, 1], ['handtowelholder', 0, 2],
      ['sinkbasin', 1, 2], ['toilet', 1, 1], ['toiletpaperhanger', 1, 1], ['towelholder', 0, 1], ['shelf', 0, 3], ['dresser', 0, 1],
      ['cart', 0, 1],
    ],
    objects: [
      'candle', 'cloth', 'dishsponge', 'handtowel', 'plunger', 'soapbar', 'soapbottle', 'spraybottle', 'tissuebox', 'toiletpaper',
      'towel', 'papertowelroll', ],
    fixed: [['mirror', 0.6], ['sink', 0.5]],
  },
};

export function canContain(receptacleClass: ClassName, objectClass: ClassName): boolean {
  return CAN_CONTAIN[receptacleClass]?.includes(objectClass) ?? false;
}
