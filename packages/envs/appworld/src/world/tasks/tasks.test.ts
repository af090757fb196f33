import { describe, expect, it } from 'vitest';
import { allTasks, startEpisode, tasksOf, SPLITS } from './catalog.js';
import { evaluateTask, goalCompletion } from './evaluate.js';
import { runExpert } from './run-expert.js';
import { APPWORLD_MAX_STEPS } from '../../suite.js';

/** Tasks the expert wins, as reached (29 scenarios × 3 variants); raise when scenarios are added. */
const EXPERT_TASKS_FLOOR = 87;

describe('task catalogue', () => {
  it('has three variants per scenario with distinct supervisors, in all four splits', () => {
    const tasks = allTasks();
    const byScenario = new Map<string, number[]>();
    for (const t of tasks) byScenario.set(t.scenarioId, [...(byScenario.get(t.scenarioId) ?? []), t.supervisor.id]);
    for (const sups of byScenario.values()) expect(new Set(sups).size).toBe(3);
    for (const s of SPLITS) expect(tasksOf(s).length).toBeGreaterThanOrEqual(6);
    expect(tasks.map((t) => t.id)).toEqual([...new Set(tasks.map((t) => t.id))]);
    expect(tasks[0]!.id).toMatch(/^[0-9a-f]{7}_[123]$/);
    expect(() => tasksOf('eval')).toThrow('unknown split "eval" for appworld: one of train, dev, test_normal, test_challenge');
  });

  it('challenge tasks are harder than normal ones', () => {
    const mean = (s: string) => tasksOf(s).reduce((a, t) => a + t.difficulty, 0) / tasksOf(s).length;
    expect(mean('test_challenge')).toBeGreaterThan(mean('test_normal'));
  });
});

describe('expert and state-based evaluation', () => {
  it('the expert passes every test of every task of every split (TGC = SGC = 100)', async () => {
    const results = [];
    for (const task of allTasks()) {
      const { report, actions } = runExpert(task);
      expect(report.failed, `${task.id} ${task.scenario.name}: ${JSON.stringify(report.tests.filter((t) => !t.passed))}`).toBe(0);
      // The env cuts episodes at APPWORLD_MAX_STEPS: a demo longer than that could not win there.
      expect(actions.length, `${task.id} ${task.scenario.name}`).toBeLessThanOrEqual(APPWORLD_MAX_STEPS);
      results.push({ task, success: report.success });
    }
    const gc = goalCompletion(results);
    expect(gc.tgc).toBe(100);
    expect(gc.sgc).toBe(100);
    const bySplit = new Map<string, number>();
    for (const { task } of results) bySplit.set(task.split, (bySplit.get(task.split) ?? 0) + 1);
    console.log(`appworld expert: ${results.length} tasks won (${[...bySplit].map(([k, v]) => `${k} ${v}`).join(', ')}), TGC ${gc.tgc}, SGC ${gc.sgc}`);
    expect(results.length).toBeGreaterThanOrEqual(EXPERT_TASKS_FLOOR);
  });

  it('doing nothing but completing fails every task, and tests name what is wrong', () => {
    for (const task of allTasks()) {
      const { session, runner } = startEpisode(task);
      runner.run({ name: 'supervisor__complete_task', parameters: task.variant.answer === null ? {} : { answer: 'no idea' } });
      const report = evaluateTask(task, session);
      session.close();
      expect(report.success, task.id).toBe(false);
      expect(report.tests.some((t) => !t.passed && t.name.length > 0)).toBe(true);
    }
  });

  it('flags collateral changes in tables the task does not own', async () => {
    const task = tasksOf('train').find((t) => t.scenario.name === 'spotify_playlist_count')!;
    const { session, runner } = startEpisode(task);
    const pw = (runner.run({ name: 'supervisor__show_account_passwords', parameters: {} }) as unknown as { body: { account_name: string; password: string }[] }).body;
    runner.run({ name: 'simple_note__login', parameters: { username: task.supervisor.email, password: pw.find((p) => p.account_name === 'simple_note')!.password } });
    expect(runner.run({ name: 'simple_note__create_note', parameters: { title: 'stray', content: '' } }).ok).toBe(true);
    runner.run({ name: 'supervisor__complete_task', parameters: { answer: task.variant.answer } });
    const report = evaluateTask(task, session);
    session.close();
    expect(report.tests.find((t) => t.name.startsWith('no collateral'))).toMatchObject({ passed: false, detail: 'changed: notes' });
    expect(report.tests.find((t) => t.name === 'the answer is correct')?.passed).toBe(true);
  });

  it('goalCompletion: SGC needs all three variants', () => {
    const tasks = tasksOf('train').slice(0, 6);
    const gc = goalCompletion(tasks.map((task, i) => ({ task, success: i !== 0 })));
    expect(gc.tgc).toBeCloseTo((5 / 6) * 100);
    expect(gc.sgc).toBe(50);
  });
});
