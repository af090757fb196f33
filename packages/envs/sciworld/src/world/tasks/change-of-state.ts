// The change-of-state tasks (boil, melt, freeze, change-the-state-of-matter-of): fifteen substances
// × stove present or broken, ScienceWorld's ordered goals per mode and its optional lists.
import { sub, type RoomName, type Spawn } from '../layout.js';
import { material as materialOf } from '../materials.js';
import type { Subgoal } from '../../engine/goals.js';
import { changeOfStateCups, type CUPPED_SUBSTANCES } from './task-draws.js';
import { HEATER_NAMES, focusedIn, heaterOrFireGoals } from './heating-goals.js';
import { inAppliance } from './spawns.js';
import { decodeLastFastest, target, type Builder, type Contents } from './variation.js';

interface StateSubstance {
  /** The name the task description uses. */
  label: string;
  material: string;
  /** Edits the world; `cup` is the container the real engine drew for this substance, when it draws one. */
  place: (c: Contents, cup: (name: CuppedSubstance) => string) => void;
}

type CuppedSubstance = (typeof CUPPED_SUBSTANCES)[number];

/** ScienceWorld's TaskDisable: the room's device stays, broken. */
const breakKind = (room: RoomName, kind: string) => (c: Contents) => {
  const dev = c[room].find((x) => x.kind === kind);
  if (!dev) throw new Error(`sciworld: base world lacks a ${kind} in the ${room}`);
  dev.broken = true;
};
const onWorkshopTable = (s: Spawn) => (c: Contents) => {
  const table = c.workshop.find((x) => x.tags?.includes('workbench'));
  if (!table) throw new Error('sciworld: base world lacks the workshop table');
  (table.contents ??= []).push(s);
};
/** A substance in a drawn cup that starts at the substance's temperature (ScienceWorld's liquid cups do: ice cream's at −15 °C). */
const cupped = (cup: string, material: string, extra: Partial<Spawn> = {}): Spawn => {
  const temperature = extra.temperature ?? materialOf(material).temperature;
  return { kind: cup as Spawn['kind'], ...(temperature === undefined ? {} : { temperature }), contents: [sub(material, { tags: target, ...extra })] };
};

/**
 * The fifteen substances in the real task's order. Water is the kitchen's (or, with the kitchen
 * sink broken, any other source's); orange juice is the fridge's own cup; a marshmallow or soap goes
 * in the kitchen cupboard (the real engine shuffles the kitchen's objects to pick among cupboard and
 * table; the recordings show the cupboard); metals come in the drawn cup on the workshop table.
 */
const STATE_SUBSTANCES: StateSubstance[] = [
  { label: 'water', material: 'water', place: () => undefined },
  { label: 'water', material: 'water', place: (c) => breakKind('kitchen', 'sink')(c) },
  { label: 'ice', material: 'water', place: (c) => inAppliance('kitchen', 'freezer', sub('water', { temperature: -10, tags: target }))(c) },
  { label: 'orange juice', material: 'orange juice', place: () => undefined },
  { label: 'apple juice', material: 'apple juice', place: (c, cup) => inAppliance('kitchen', 'fridge', cupped(cup('apple juice'), 'apple juice'))(c) },
  { label: 'chocolate', material: 'chocolate', place: (c) => inAppliance('kitchen', 'fridge', sub('chocolate', { tags: target }))(c) },
  { label: 'marshmallow', material: 'marshmallow', place: (c) => inAppliance('kitchen', 'cupboard', sub('marshmallow', { tags: target }))(c) },
  { label: 'ice cream', material: 'ice cream', place: (c, cup) => inAppliance('kitchen', 'freezer', cupped(cup('ice cream'), 'ice cream'))(c) },
  { label: 'soap', material: 'soap', place: () => undefined },
  { label: 'rubber', material: 'rubber', place: (c) => onWorkshopTable(sub('rubber', { tags: target }))(c) },
  ...(['lead', 'tin', 'mercury', 'gallium', 'caesium'] as const).map((m): StateSubstance => ({ label: m, material: m, place: (c, cup) => onWorkshopTable(cupped(cup(m), m, { bornName: m }))(c) })),
];

const STATE_VERB = { boil: 'boil', melt: 'melt', freeze: 'freeze', change: 'change the state of matter of' } as const;
const STATE_MODE = { boil: 'boil', melt: 'melt', freeze: 'freeze', change: 'change' } as const;

export function stateBuilder(goal: 'boil' | 'melt' | 'freeze' | 'change'): Builder {
  return (v, contents) => {
    const [si, stove] = decodeLastFastest(v, [STATE_SUBSTANCES.length, 2]);
    const s = STATE_SUBSTANCES[si!]!;
    const cups = changeOfStateCups(v, STATE_MODE[goal]);
    s.place(contents, (name) => cups[name]);
    if (stove === 1) breakKind('kitchen', 'stove')(contents);
    const label = s.label;
    const combustNote = goal === 'boil' ? 'For compounds without a boiling point, combusting the substance is also acceptable. ' : '';
    const description = `Your task is to ${STATE_VERB[goal]} ${label}. ${combustNote}First, focus on the substance. Then, take actions that will cause it to change its state of matter.`;
    const focus: Subgoal = { type: 'focus', match: { material: s.material }, failIfWrong: true };
    // ScienceWorld's ordered goals per mode (change: any state, then a different one).
    const seq: Subgoal[] =
      goal === 'boil'
        ? [focus, { type: 'focusState', states: ['liquid', 'gas'], orCombusted: true }, { type: 'focusState', states: ['gas'], orCombusted: true }]
        : goal === 'melt'
          ? [focus, { type: 'focusState', states: ['solid'] }, { type: 'focusState', states: ['liquid'] }]
          : goal === 'freeze'
            ? [focus, { type: 'focusState', states: ['liquid'] }, { type: 'focusState', states: ['solid'] }]
            : [focus, { type: 'focusState', states: ['solid', 'liquid', 'gas'], orCombusted: true }, { type: 'focusChangedState' }];
    return {
      description,
      goals: {
        ordered: seq,
        optional: changeOfStateOptionalGoals(goal, s.material),
      },
      plan: { kind: 'state', goal, material: s.material },
    };
  };
}

/**
 * The change-of-state tasks' optional goals, ScienceWorld's list for each mode in its order: near the
 * substance, the substance alone in a container, a heater on (stove, blast furnace, oven, hot plate)
 * or a fire built (lighter carried, wood in the fire pit, then the wood burning), the focused
 * substance on a heater or in a cooler, and it warmed (or cooled) by a margin.
 */
function changeOfStateOptionalGoals(goal: keyof typeof STATE_MODE, material: string): Subgoal[] {
  const substance = { material };
  const near: Subgoal[] = [
    { type: 'sameRoom', match: substance },
    { type: 'alone', match: substance },
  ];
  const coolers = [focusedIn('fridge'), focusedIn('freezer')];
  if (goal === 'freeze') return [...near, ...coolers, { type: 'focusTemperature', by: -5 }];
  const heating = [...heaterOrFireGoals(near.length), ...HEATER_NAMES.concat('fire pit').map(focusedIn)];
  if (goal === 'change') return [...near, ...heating, ...coolers, { type: 'focusTemperature', by: 10 }, { type: 'focusTemperature', by: -10 }];
  return [...near, ...heating, { type: 'focusTemperature', by: 20 }];
}
