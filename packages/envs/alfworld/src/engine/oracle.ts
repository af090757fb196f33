// The oracle: a policy that reads the true game state (where every object is, seen or not) and
// returns the next command toward the goal — the shortest route, never a search. No agent could
// act so from the text, so it is not what policies imitate (that is the searching expert,
// src/expert/); it is kept as the engine's own solver: tests that every game is solvable, from any
// state, and the replay and responder checks on the paper's games use it. Every command it returns
// is admissible.
import { COMMANDS } from '../world/text.js';
import { TASK_SPECS } from '../world/tasks.js';
import { canContain } from '../world/vocab.js';
import { TRANSFORM_RULES } from '../world/rules.js';
import type { AlfworldGame } from './game.js';
import type { ReceptacleSpec } from './scene.js';

export function oracleAction(game: AlfworldGame): string | undefined {
  if (game.won) return undefined;
  const goal = game.spec.goal;
  const spec = TASK_SPECS[goal.taskType];
  const heldName = game.heldObject;
  const held = heldName ? game.object(heldName) : undefined;

  /** Walk to a receptacle, open it when the next act needs its inside, then act. */
  const reach = (r: ReceptacleSpec, act: string, needsInside: boolean): string => {
    if (r.loc !== game.locationIndex) return COMMANDS.goTo(r.name);
    if (needsInside && r.openable && !game.isOpen(r.name)) return COMMANDS.open(r.name);
    return act;
  };

  if (held && held.cls === goal.obj) {
    if (spec.light) {
      const lamp = game.spec.objects.find((o) => o.cls === goal.toggle)!;
      return reach(game.receptacle(game.locationOf(lamp.name)!)!, COMMANDS.use(lamp.name), false);
    }
    if (spec.transform) {
      const rule = TRANSFORM_RULES[spec.transform];
      if (!game.objectState(held.name)![rule.sets]) {
        const classes = rule.appliances;
        const appliance = game.here.find((r) => classes.includes(r.cls)) ?? game.spec.receptacles.find((r) => classes.includes(r.cls))!;
        return reach(appliance, COMMANDS[spec.transform](held.name, appliance.name), false);
      }
    }
    const dest = destination(game);
    return reach(dest, COMMANDS.put(game.grammar, held.name, dest.name), true);
  }

  if (held) {
    // A stray object in hand: set it down where it fits, nearest first.
    const fits = (r: ReceptacleSpec) => canContain(r.cls, held.cls);
    const spot = game.here.find(fits) ?? game.spec.receptacles.find(fits)!;
    return reach(spot, COMMANDS.put(game.grammar, held.name, spot.name), true);
  }

  // Hands empty: fetch a target object (for pick-two, one not yet in the chosen destination).
  const dest = spec.light ? undefined : destination(game);
  const candidates = game.spec.objects.filter((o) => {
    if (o.cls !== goal.obj || !o.pickupable) return false;
    const at = game.locationOf(o.name);
    return !(spec.two && at === dest?.name);
  });
  const pick = candidates.find((o) => game.receptacle(game.locationOf(o.name)!)!.loc === game.locationIndex) ?? candidates[0]!;
  const from = game.receptacle(game.locationOf(pick.name)!)!;
  return reach(from, COMMANDS.take(pick.name, from.name), true);
}

/** The destination instance: for pick-two the one already holding most targets, else the first. */
function destination(game: AlfworldGame): ReceptacleSpec {
  const goal = game.spec.goal;
  const dests = game.spec.receptacles.filter((r) => r.cls === goal.recep);
  let best = dests[0]!;
  let bestCount = -1;
  for (const r of dests) {
    const n = game.contents(r.name).filter((o) => game.object(o)!.cls === goal.obj).length;
    if (n > bestCount) [best, bestCount] = [r, n];
  }
  return best;
}

/** Plays the oracle from the game's current state; returns the commands it issued. */
export function runOracle(game: AlfworldGame, maxSteps = 200): string[] {
  const actions: string[] = [];
  while (!game.won && actions.length < maxSteps) {
    const a = oracleAction(game);
    if (a === undefined) break;
    actions.push(a);
    game.step(a);
  }
  return actions;
}
