import { parseEpisodeRow, parseWorldModelUserTurn, pyJsonDumps, validateRow, worldModelPromptMessages } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { corpusEpisodes, corpusRows, episodeRows, expertDemo, playedEpisodeRecord } from './corpus.js';
import { observationOfUserTurn } from './harness/agent.js';
import { gameForTask, splitTasks } from './engine/splits.js';
import { parseEpisodeRecord } from '@diffworld/env-core';

describe('world-model corpus', () => {
  it('writes one row per action: grounded system, State/Action user turn, next observation', () => {
    const [ep] = [...corpusEpisodes({ split: 'train', episodes: 1, seed: 3, expertShare: 0 })];
    const rows = episodeRows(ep!);
    expect(rows).toHaveLength(ep!.actions.length);
    for (const [k, row] of rows.entries()) {
      expect(validateRow(row)).toMatchObject({ ok: true });
      const [sys, user, asst] = row.messages;
      expect(sys!.content.startsWith('## ENVIRONMENT STATE\n')).toBe(true);
      const turn = parseWorldModelUserTurn(user!.content)!;
      expect(turn.action).toBe(ep!.actions[k]);
      expect(turn.history).toEqual(ep!.messages.slice(0, 2 + 2 * k));
      expect(user!.content).toBe(`State: ${pyJsonDumps(ep!.messages.slice(0, 2 + 2 * k).map((m) => ({ role: m.role, content: m.content })))}\n\nAction: ${ep!.actions[k]}`);
      expect(asst!.content).toBe(ep!.observations[k]);
      expect(ep!.messages[3 + 2 * k]!.content.startsWith(`Observation:\n${asst!.content}\n\nAdmissible commands:\n`)).toBe(true);
      expect(row.dataset).toBe('alfworld');
    }
  });

  it("episode layout: one row per episode, every observation a target, its prefixes the simulated env's prompts", () => {
    const [ep] = [...corpusEpisodes({ split: 'train', episodes: 1, seed: 3, expertShare: 0 })];
    const [row, ...more] = episodeRows(ep!, undefined, 'episode');
    expect(more).toEqual([]);
    expect(validateRow(row!)).toMatchObject({ ok: true });
    const transition = episodeRows(ep!);
    const system = transition[0]!.messages[0]!.content;
    const view = parseEpisodeRow(row!.messages)!;
    expect(view.system).toBe(system);
    expect(view.steps).toEqual(ep!.actions.map((action, k) => ({ action, observation: ep!.observations[k] })));
    expect(view.context).toBe(observationOfUserTurn(ep!.messages[1]!.content)); // the admissible list left out
    expect(view.context).not.toContain('Admissible commands');
    for (let k = 0; k < ep!.actions.length; k++) {
      const prompt = worldModelPromptMessages({ system, history: ep!.messages.slice(0, 2 + 2 * k), action: ep!.actions[k]! }, { layout: 'episode' });
      expect(row!.messages.slice(0, prompt.length)).toEqual(prompt);
      expect(row!.messages[prompt.length]).toEqual({ role: 'assistant', content: ep!.observations[k] });
    }
    expect([...corpusRows({ split: 'train', episodes: 3, seed: 3, layout: 'episode' })]).toHaveLength(3);
  });

  it('covers failure states: perturbed episodes contain "Nothing happens." and detours, yet mostly still win', () => {
    const eps = [...corpusEpisodes({ split: 'train', episodes: 60, seed: 1 })];
    const perturbed = eps.filter((e) => e.perturbed);
    expect(perturbed.length).toBeGreaterThan(20);
    const nothing = [...corpusRows({ split: 'train', episodes: 60, seed: 1 })].filter((r) => r.messages[2]!.content === 'Nothing happens.').length;
    expect(nothing).toBeGreaterThan(10);
    expect(eps.filter((e) => e.won).length).toBeGreaterThan(50);
    expect([...corpusEpisodes({ split: 'train', episodes: 5, seed: 1 })].map((e) => e.actions)).toEqual(eps.slice(0, 5).map((e) => e.actions));
  });

  it('freshGames: episodes past the split list play new games of its floorplans, not its tasks again', () => {
    const n = splitTasks('eval_out_of_distribution').length;
    const listed = new Set(splitTasks('eval_out_of_distribution').map((t) => t.id));
    const replay = [...corpusEpisodes({ split: 'eval_out_of_distribution', episodes: n + 12, seed: 2 })];
    const fresh = [...corpusEpisodes({ split: 'eval_out_of_distribution', episodes: n + 12, seed: 2, freshGames: true })];
    // The first pass is the same list either way; past it the replay repeats tasks, fresh does not.
    expect(fresh.slice(0, n).map((e) => e.task.id)).toEqual(replay.slice(0, n).map((e) => e.task.id));
    expect(replay.slice(n).every((e) => listed.has(e.task.id))).toBe(true);
    const extra = fresh.slice(n);
    expect(extra.some((e) => listed.has(e.task.id))).toBe(false);
    expect(new Set(fresh.map((e) => e.task.id)).size).toBe(n + 12);
    // The same floorplans as the split (its receptacle sets), new object placements.
    const floors = new Set(
      splitTasks('eval_out_of_distribution').map((t) =>
        gameForTask(t)
          .receptacles.map((r) => r.name)
          .join(','),
      ),
    );
    for (const [i, e] of extra.entries()) {
      const base = replay[n + i]!.task;
      expect(e.task).toMatchObject({ split: 'eval_out_of_distribution', taskType: base.taskType });
      expect(e.task.seed).not.toBe(base.seed);
      expect(
        floors.has(
          gameForTask(e.task)
            .receptacles.map((r) => r.name)
            .join(','),
        ),
      ).toBe(true);
    }
    expect(extra.filter((e) => e.won).length).toBeGreaterThan(8);
  });

  it('counts the state facts each step changes, and rows carry the counts as meta.state_changes', () => {
    const eps = [...corpusEpisodes({ split: 'train', episodes: 40, seed: 5 })];
    const seen = new Map<string, Set<number>>();
    for (const ep of eps) {
      expect(ep.stateChanges).toHaveLength(ep.actions.length);
      ep.actions.forEach((a, k) => {
        const verb = ep.observations[k] === 'Nothing happens.' ? 'nothing' : a.split(' ')[0]!;
        seen.set(verb, (seen.get(verb) ?? new Set()).add(ep.stateChanges[k]!));
      });
      const [row] = episodeRows(ep, undefined, 'episode');
      expect(row!.meta).toEqual({ state_changes: ep.stateChanges });
    }
    // What each kind of step changes: nothing when the engine refuses, the agent's place for go to,
    // one object's place for take/move, one door for open/close, one flag for heat/cool/clean.
    expect(seen.get('nothing')).toEqual(new Set([0]));
    for (const verb of ['take', 'move', 'open', 'heat', 'cool', 'clean']) if (seen.has(verb)) expect(seen.get(verb)).toEqual(new Set([1]));
    expect([...seen.get('go')!].every((n) => n <= 1)).toBe(true);
    expect(seen.get('go')!.has(1)).toBe(true);
    for (const verb of ['look', 'inventory', 'examine']) if (seen.has(verb)) expect(seen.get(verb)).toEqual(new Set([0]));
    expect(['take', 'open', 'go'].every((v) => seen.has(v))).toBe(true);
    const transitions = episodeRows(eps[0]!, undefined, 'transition');
    expect(transitions.map((r) => r.meta!['state_changes'])).toEqual(eps[0]!.stateChanges);
  });

  it('builds expert demos and valid episode records', () => {
    const task = splitTasks('eval_out_of_distribution')[7]!;
    const demo = expertDemo(task);
    expect(demo.won).toBe(true);
    expect(demo.messages.at(-1)!.role).toBe('assistant');
    const rec = playedEpisodeRecord(demo);
    expect(parseEpisodeRecord(JSON.parse(JSON.stringify(rec))).ok).toBe(true);
    expect(rec).toMatchObject({ env: 'alfworld', split: 'eval_out_of_distribution', won: true, score: 1, steps: demo.actions.length });
    expect(() => [...corpusEpisodes({ split: 'nope', episodes: 1 })]).toThrow(/unknown split "nope"/);
  });
});
