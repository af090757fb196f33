// The paper's simulator rules for ALFWorld (shared/reference/upstream-paper-repo.md §4.3), as an
// option of the simulated env: its admissible-command generator (its own order and contents, not
// the real engine's sorted list) and its scheduler's stops (loop kill, the "Nothing happens." limit).
// The reward at the end is its `alfworld_reward`, computed from the conversation.
import { splitName } from '../engine/names.js';
import { COMMANDS, NOTHING_HAPPENS } from '../world/text.js';
import { RESPONDER_OPENABLE } from '../world/vocab.js';
import type { Belief } from './belief.js';

const cls = (name: string) => splitName(name).cls;

/** The appliance word the reference looks for in the current receptacle's name, per transform. */
const TRANSFORM_AT = [
  ['clean', 'sinkbasin'],
  ['heat', 'microwave'],
  ['cool', 'fridge'],
] as const;

/**
 * The reference simulator's admissible list, in its order: look, inventory, help; go to every
 * receptacle in scene order; examine here, then held and present objects; open or close here;
 * take / move when here is not closed; clean / heat / cool at a sink basin / microwave / fridge
 * while holding something; use lamps and light switches; slice with a held knife; de-duplicated.
 */
export function paperAdmissible(b: Belief): string[] {
  const out: string[] = [COMMANDS.look, COMMANDS.inventory, COMMANDS.help];
  for (const r of b.scene.receptacles) out.push(COMMANDS.goTo(r.name));
  const here = b.location;
  const present = here === undefined ? [] : (b.contents.get(here) ?? []);
  if (here !== undefined) out.push(COMMANDS.examine(here));
  for (const o of [...b.inventory, ...present]) out.push(COMMANDS.examine(o));
  if (here !== undefined) {
    const openable = RESPONDER_OPENABLE.has(cls(here));
    const closed = b.doors.has(here) && !b.opened.has(here);
    if (openable) out.push(closed ? COMMANDS.open(here) : COMMANDS.close(here));
    if (!closed) {
      for (const o of present) out.push(COMMANDS.take(o, here));
      for (const o of b.inventory) out.push(COMMANDS.put('current', o, here));
    }
    for (const held of b.inventory) for (const [t, word] of TRANSFORM_AT) if (here.includes(word)) out.push(COMMANDS[t](held, here));
  }
  for (const o of [...present, ...b.inventory]) if (o.includes('lamp') || cls(o) === 'lightswitch') out.push(COMMANDS.use(o));
  const knife = b.inventory.find((o) => cls(o).includes('knife'));
  if (knife) for (const o of present) out.push(COMMANDS.slice(o, knife));
  return [...new Set(out)];
}

/** Why the reference scheduler ends an episode early, if it does. */
export type PaperKill = 'loop' | 'nothing_happens';

/** ALFWORLD_LOOP_LIMIT and ALFWORLD_NOTHING_LIMIT defaults. */
export const LOOP_LIMIT = 3;
export const NOTHING_LIMIT = 4;

/**
 * The scheduler's stops after an action: the same action `LOOP_LIMIT` times in a row, an ABAB
 * oscillation, at most 3 distinct actions among the last 20, or `NOTHING_LIMIT` "Nothing happens."
 * in a row.
 */
export function paperKill(actions: readonly string[], observations: readonly string[]): PaperKill | undefined {
  const n = actions.length;
  const last = actions.slice(-LOOP_LIMIT);
  if (last.length === LOOP_LIMIT && last.every((a) => a === last[0])) return 'loop';
  if (n >= 4) {
    const [a, b, c, d] = actions.slice(-4);
    if (a === c && b === d && a !== b) return 'loop';
  }
  if (n >= 20 && new Set(actions.slice(-20)).size <= 3) return 'loop';
  const tail = observations.slice(-NOTHING_LIMIT);
  if (tail.length === NOTHING_LIMIT && tail.every((o) => o.trim() === NOTHING_HAPPENS)) return 'nothing_happens';
  return undefined;
}
