import { describe, expect, it } from 'vitest';
import { Rng, type ChatMessage } from '@diffworld/env-core';
import { AlfworldGame } from '../engine/game.js';
import { canHost } from '../engine/placement.js';
import type { GameSpec } from '../engine/scene.js';
import { gameForTask, splitTasks } from '../engine/splits.js';
import { formatUserTurn } from '../harness/agent.js';
import { importRowsFile } from '../paper/games-file.js';
import { alfworldSuite } from '../suite.js';
import { paperRowFiles } from '../testing/paper-data.js';
import { buildScene } from '../testing/scenes.js';
import { TASK_TYPES } from '../world/tasks.js';
import { expertAction } from './policy.js';
import { playExpert } from './run.js';
import { parseGoal, viewOf } from './view.js';

const TURNS = 30;

/** Wins within the paper's 30 turns, overall and per task type. */
function winRates(games: readonly GameSpec[]) {
  const by = new Map<string, { n: number; won: number }>();
  let won = 0;
  let turns = 0;
  for (const spec of games) {
    const ep = playExpert(new AlfworldGame(spec));
    const ok = ep.won && ep.actions.length <= TURNS;
    const t = by.get(spec.goal.taskType) ?? { n: 0, won: 0 };
    by.set(spec.goal.taskType, t);
    t.n++;
    if (ok) t.won++, won++, (turns += ep.actions.length);
  }
  return { rate: won / games.length, meanTurns: turns / won, byType: Object.fromEntries([...by].map(([k, v]) => [k, v.won / v.n])) };
}

/** Plays `actions` then the expert from the visible history; the conversation as the agent saw it (continued when given). */
function playFrom(
  game: AlfworldGame,
  actions: readonly string[],
  maxSteps = 50,
  messages: ChatMessage[] = [{ role: 'user', content: formatUserTurn(game.intro(), game.admissibleCommands()) }],
): ChatMessage[] {
  const step = (a: string) => messages.push({ role: 'assistant', content: `Action: ${a}` }, { role: 'user', content: formatUserTurn(game.step(a).feedback, game.admissibleCommands()) });
  for (const a of actions) step(a);
  for (let i = 0; i < maxSteps && !game.won; i++) {
    const a = expertAction(messages);
    if (a === undefined) break;
    step(a);
  }
  return messages;
}

describe('the searching expert on generated games', () => {
  it('wins ≥ 95% of the train split within 30 turns (≥ 90% of every task type)', () => {
    const r = winRates(splitTasks('train').map((t) => gameForTask(t)));
    console.log(`searching expert, train: ${(100 * r.rate).toFixed(1)}% won within ${TURNS} turns, ${r.meanTurns.toFixed(1)} turns on average; by type ${JSON.stringify(r.byType)}`);
    expect(r.rate).toBeGreaterThanOrEqual(0.95);
    for (const t of TASK_TYPES) expect(r.byType[t]).toBeGreaterThanOrEqual(0.9);
  }, 120_000);

  it("is what the suite's expert plays, and the same commands come from the history alone at every turn", () => {
    for (const task of splitTasks('eval_out_of_distribution').filter((_, i) => i % 9 === 0)) {
      const ep = playExpert(new AlfworldGame(gameForTask(task)));
      expect(alfworldSuite.expert(task)).toEqual(ep.actions);
      for (let k = 0; k < ep.actions.length; k++) {
        expect(expertAction(ep.messages.slice(0, 1 + 2 * k))).toBe(ep.actions[k]);
        expect(alfworldSuite.expertAction(task, ep.messages.slice(0, 1 + 2 * k))).toBe(ep.actions[k]);
      }
    }
  });

  it('acts on what it saw, not on the game: moving an unseen target changes nothing until an observation shows it', () => {
    let compared = 0;
    let diverged = 0;
    for (const task of splitTasks('train').filter((_, i) => i % 20 === 0)) {
      const spec = gameForTask(task);
      const a = playExpert(new AlfworldGame(spec));
      const target = spec.objects.find((o) => o.cls === spec.goal.obj)!;
      const elsewhere = spec.receptacles.find((r) => r.name !== target.parent && canHost(r.cls, target.cls) && r.cls !== spec.goal.recep);
      if (!elsewhere) continue;
      const moved: GameSpec = { ...spec, objects: spec.objects.map((o) => (o === target ? { ...o, parent: elsewhere.name } : o)) };
      const b = playExpert(new AlfworldGame(moved));
      // Turn k's command depends on the user turns before it: equal until the first differing one.
      const firstDiff = a.messages.findIndex((m, i) => m.content !== b.messages[i]?.content);
      const sameTurns = firstDiff < 0 ? a.actions.length : Math.floor(firstDiff / 2);
      expect(b.actions.slice(0, sameTurns)).toEqual(a.actions.slice(0, sameTurns));
      compared++;
      if (firstDiff >= 0) diverged++;
    }
    expect(compared).toBeGreaterThan(150);
    expect(diverged).toBeGreaterThan(100);
  });

  it('its first walks find the target more often than walks in a random order of the same receptacles', () => {
    let expertFirst = 0;
    let randomFirst = 0;
    let n = 0;
    for (const task of splitTasks('train').filter((_, i) => i % 5 === 0)) {
      const spec = gameForTask(task);
      if (spec.goal.taskType === 'look_at_obj_in_light') continue;
      const ep = playExpert(new AlfworldGame(spec));
      const firstGo = ep.actions.find((x) => x.startsWith('go to '))!.slice(6);
      const hosts = spec.receptacles.filter((r) => canHost(r.cls, spec.goal.obj));
      const holds = (r: string) => spec.objects.some((o) => o.cls === spec.goal.obj && o.parent === r);
      if (holds(firstGo)) expertFirst++;
      randomFirst += hosts.filter((r) => holds(r.name)).length / hosts.length;
      n++;
    }
    console.log(`first walk reaches a target: expert ${((100 * expertFirst) / n).toFixed(1)}%, a random receptacle that can hold it ${((100 * randomFirst) / n).toFixed(1)}%`);
    expect(expertFirst / n).toBeGreaterThan(1.5 * (randomFirst / n));
  });

  it('recovers from any state a policy leaves it in: random detours first, then the expert from the visible history', () => {
    const rng = new Rng(3);
    const junk = ['look around', 'take apple', 'go to cabinet 99', 'open the fridge 1', ''];
    let won = 0;
    const tasks = splitTasks('train').filter((_, i) => i % 12 === 0);
    for (const task of tasks) {
      const game = new AlfworldGame(gameForTask(task));
      const detours: string[] = [];
      const probe = new AlfworldGame(game.spec);
      for (let i = 0; i < 15 && !probe.won; i++) {
        const a = rng.bool(0.8) ? rng.pick(probe.admissibleCommands()) : rng.pick(junk);
        probe.step(a);
        detours.push(a);
      }
      playFrom(game, detours, 50);
      if (game.won) won++;
    }
    expect(won / tasks.length).toBeGreaterThanOrEqual(0.95);
  });

  it('also plays the classic grammar (put X in/on Y, You arrive at loc N.)', () => {
    let won = 0;
    const tasks = splitTasks('eval_out_of_distribution');
    for (const task of tasks) {
      const ep = playExpert(new AlfworldGame(gameForTask(task), { grammar: 'classic' }));
      if (ep.won) won++;
    }
    expect(won / tasks.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe('the agent view (expert/view.ts)', () => {
  const HOUSE = buildScene({
    locations: [['cabinet 1', 'cabinet 2'], ['countertop 1'], ['sinkbasin 1'], ['microwave 1'], ['fridge 1']],
    objects: { 'apple 1': 'cabinet 2', 'mug 1': 'countertop 1' },
    goal: { taskType: 'pick_heat_then_place_in_recep', text: 'put a hot mug in fridge', obj: 'mug', recep: 'fridge' },
  });

  it('reads the goal of every template and of every generated game', () => {
    expect(parseGoal('put a hot potato in sinkbasin.')).toMatchObject({ taskType: 'pick_heat_then_place_in_recep', obj: 'potato', recep: 'sinkbasin' });
    expect(parseGoal('examine the alarmclock with the desklamp')).toMatchObject({ taskType: 'look_at_obj_in_light', obj: 'alarmclock', toggle: 'desklamp' });
    expect(parseGoal('find two newspaper and put them in sofa')).toMatchObject({ taskType: 'pick_two_obj_and_place', obj: 'newspaper', recep: 'sofa' });
    expect(parseGoal('dance')).toBeUndefined();
    for (const s of ['train', 'eval_in_distribution', 'eval_out_of_distribution'])
      for (const t of splitTasks(s).filter((_, i) => i % 7 === 0)) {
        const g = gameForTask(t).goal;
        expect(parseGoal(g.text)).toEqual({ text: g.text, taskType: g.taskType, obj: g.obj, recep: g.recep, toggle: g.toggle });
      }
  });

  it('knows only what the conversation showed: doors, contents, what stands beside the agent, what it holds and heated', () => {
    const game = new AlfworldGame(HOUSE);
    const messages = playFrom(game, ['go to cabinet 1', 'open cabinet 2', 'go to countertop 1', 'take mug 1 from countertop 1', 'go to microwave 1', 'heat mug 1 with microwave 1'], 0);
    const v = viewOf(messages);
    expect(v.goal).toMatchObject({ obj: 'mug', recep: 'fridge' });
    expect(v.receptacles).toEqual(['cabinet 2', 'cabinet 1', 'countertop 1', 'fridge 1', 'microwave 1', 'sinkbasin 1']);
    expect(v.contents.get('cabinet 2')).toEqual(['apple 1']);
    expect(v.contents.has('cabinet 1')).toBe(false); // found shut, never opened
    expect(v.closed.has('cabinet 1')).toBe(true);
    expect(v.contents.get('countertop 1')).toEqual([]);
    expect(v.contents.has('fridge 1')).toBe(false);
    expect(v.held).toBe('mug 1');
    expect(v.flags.hot.has('mug 1')).toBe(true);
    expect([...v.here]).toEqual(['microwave 1']);
    // At cabinet 1 the admissible list offered `open cabinet 2`: it stands there too.
    expect(viewOf(messages.slice(0, 3)).here).toEqual(new Set(['cabinet 1', 'cabinet 2']));
    // Next: carry the hot mug to the fridge, open it, put it in.
    expect(
      playFrom(game, [], 5, messages)
        .slice(-6)
        .filter((m) => m.role === 'assistant')
        .map((m) => m.content),
    ).toEqual(['Action: go to fridge 1', 'Action: open fridge 1', 'Action: move mug 1 to fridge 1']);
    expect(game.won).toBe(true);
  });

  it('walks to a receptacle beside it by opening it, not by a refused `go to`', () => {
    const game = new AlfworldGame(
      buildScene({
        // Soap bars are likelier on a countertop than in a cabinet, but this countertop is the destination.
        locations: [['cabinet 1', 'cabinet 2'], ['countertop 1']],
        objects: { 'soapbar 1': 'cabinet 2' },
        goal: { taskType: 'pick_and_place_simple', text: 'put a soapbar in countertop', obj: 'soapbar', recep: 'countertop' },
      }),
    );
    const actions = playFrom(game, ['go to cabinet 1', 'open cabinet 1'])
      .filter((m) => m.role === 'assistant')
      .map((m) => m.content.slice(8));
    expect(actions.slice(2, 4)).toEqual(['open cabinet 2', 'take soapbar 1 from cabinet 2']);
    expect(actions).not.toContain('go to cabinet 2');
    expect(game.won).toBe(true);
  });

  it('has nothing to say without a goal', () => {
    expect(expertAction([])).toBeUndefined();
    expect(expertAction([{ role: 'user', content: 'Observation:\nhello' }])).toBeUndefined();
  });
});

describe("the searching expert on the paper's real games (../shared/data/paper/alfworld)", () => {
  const files = paperRowFiles();
  it.skipIf(!files)(
    'wins ≥ 90% of the 140 eval_in_distribution and of the 300 train games within 30 turns',
    async () => {
      for (const file of files!) {
        const { games } = await importRowsFile(file);
        const r = winRates(games.map((g) => g.spec));
        // Most losses are games whose target the scene walk never saw: the import had to put it somewhere (its `inferred`).
        const seen = winRates(games.filter((g) => !g.inferred.some((s) => s.startsWith(`${g.spec.goal.obj} `) && s.includes(' added in '))).map((g) => g.spec));
        console.log(
          `searching expert, ${file.split('/').at(-1)}: ${(100 * r.rate).toFixed(1)}% won within ${TURNS} turns (${(100 * seen.rate).toFixed(1)}% where the walk saw the target), ${r.meanTurns.toFixed(1)} turns on average`,
        );
        expect(r.rate).toBeGreaterThanOrEqual(0.9);
        expect(seen.rate).toBeGreaterThanOrEqual(0.97);
      }
    },
    60_000,
  );
});
