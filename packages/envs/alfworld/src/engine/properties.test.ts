// Property tests over every generated game of every split: the expert always wins, random play
// never throws, and the state invariants hold after every step.
import { Rng } from '@diffworld/env-core';
import { describe, expect, it } from 'vitest';
import { SPLITS, SPLIT_COUNTS, TASK_TYPES } from '../world/tasks.js';
import { canContain } from '../world/vocab.js';
import { runOracle } from './oracle.js';
import { AlfworldGame } from './game.js';
import { gameForTask, splitTasks } from './splits.js';

/** Returns a description of the first broken invariant, or undefined. Plain code: runs every step. */
function brokenInvariant(g: AlfworldGame): string | undefined {
  const seen = new Map<string, number>();
  for (const r of g.spec.receptacles) for (const o of g.contents(r.name)) seen.set(o, (seen.get(o) ?? 0) + 1);
  const held = g.heldObject;
  if (held !== undefined) {
    if (seen.has(held)) return `${held} is held and also in a receptacle`;
    seen.set(held, 1);
  }
  // Every object is in exactly one place; at most one is held.
  if (seen.size !== g.spec.objects.length) return `${g.spec.objects.length - seen.size} objects are nowhere`;
  for (const [o, n] of seen) if (n !== 1) return `${o} is in ${n} places`;
  for (const r of g.spec.receptacles)
    for (const o of g.contents(r.name)) {
      const obj = g.object(o)!;
      if (obj.pickupable && obj.parent !== r.name && !canContain(r.cls, obj.cls)) return `${o} is in ${r.name}, which cannot hold it`;
    }
  return undefined;
}

describe('splits', () => {
  it('has the published sizes and stable, unique ids', () => {
    expect(splitTasks('train')).toHaveLength(3553);
    expect(splitTasks('eval_in_distribution')).toHaveLength(140);
    expect(splitTasks('eval_out_of_distribution')).toHaveLength(134);
    const ids = SPLITS.flatMap((s) => splitTasks(s).map((t) => t.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of SPLITS) for (const t of TASK_TYPES) expect(splitTasks(s).filter((x) => x.taskType === t)).toHaveLength(SPLIT_COUNTS[s][t]);
    expect(() => splitTasks('valid_seen')).toThrow('unknown split "valid_seen" for alfworld: one of train, eval_in_distribution, eval_out_of_distribution');
  });

  it("floorplans follow ALFRED's scene split: OOD games in valid_unseen's four, the others in the seen 108", () => {
    const unseen = new Set([10, 219, 308, 424]);
    const testUnseen = new Set([9, 29, 215, 226, 315, 325, 404, 425]);
    const used = new Map<string, Set<number>>();
    for (const s of SPLITS)
      for (const t of splitTasks(s).filter((_, i) => i % 3 === 0)) {
        const fp = gameForTask(t).floorplan;
        expect(testUnseen.has(fp), `${t.id}: floorplan ${fp}`).toBe(false);
        expect(unseen.has(fp), `${t.id}: floorplan ${fp}`).toBe(s === 'eval_out_of_distribution');
        (used.get(s) ?? used.set(s, new Set()).get(s)!).add(fp);
      }
    expect([...used.get('eval_out_of_distribution')!].sort()).toEqual([10, 219, 308, 424]);
    expect(used.get('train')!.size).toBeGreaterThan(90);
  });

  it('generation is deterministic and no game starts already won', () => {
    const t = splitTasks('train')[1234]!;
    expect(gameForTask(t)).toEqual(gameForTask({ ...t }));
    const wonAtStart = SPLITS.flatMap((s) => splitTasks(s)).filter((task) => new AlfworldGame(gameForTask(task)).goalSatisfied());
    expect(wonAtStart).toEqual([]);
  });
});

describe('expert', () => {
  it('wins every game of every split (3,827 games), using only admissible commands', () => {
    let games = 0;
    for (const s of SPLITS)
      for (const task of splitTasks(s)) {
        const g = new AlfworldGame(gameForTask(task));
        const replay = new AlfworldGame(g.spec);
        const actions = runOracle(g);
        if (!g.won || actions.length > 50) throw new Error(`${task.id}: expert ${g.won ? 'took ' + actions.length + ' steps' : 'lost'}`);
        for (const a of actions) if (!replay.step(a).valid) throw new Error(`${task.id}: expert command ${a} is not admissible`);
        if (!replay.won) throw new Error(`${task.id}: replay of the expert did not win`);
        games++;
      }
    expect(games).toBe(3827);
  });

  it('also wins in the classic grammar', () => {
    for (const task of splitTasks('eval_out_of_distribution')) {
      const g = new AlfworldGame(gameForTask(task), { grammar: 'classic' });
      runOracle(g);
      if (!g.won) throw new Error(`${task.id}: classic expert lost`);
    }
  });
});

describe('random play', () => {
  it('never throws, keeps invariants, ignores inadmissible commands, and the expert recovers from any state', () => {
    const rng = new Rng(7);
    const junk = ['', 'look around', 'take', 'go to', 'open the fridge 1', 'put apple 1 in/on fridge 1', '\u00e9\u{1F600}', 'x'.repeat(500), 'go to cabinet 99'];
    const tasks = SPLITS.flatMap((s) => splitTasks(s).filter((_, i) => i % 4 === 0));
    const problems: string[] = [];
    for (const task of tasks) {
      const g = new AlfworldGame(gameForTask(task));
      for (let step = 0; step < 50 && !g.won; step++) {
        const adm = g.admissibleCommands();
        if (rng.bool(0.2)) {
          const r = g.step(rng.pick(junk));
          if (r.feedback !== 'Nothing happens.' || g.admissibleCommands().join('|') !== adm.join('|')) problems.push(`${task.id}: junk changed the state`);
        } else g.step(rng.pick(adm));
        const broken = brokenInvariant(g);
        if (broken) problems.push(`${task.id} step ${step}: ${broken}`);
      }
      runOracle(g);
      if (!g.won) problems.push(`${task.id}: expert did not recover`);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(tasks.length).toBeGreaterThan(950);
  });
});
