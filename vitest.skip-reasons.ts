// A vitest reporter: after the default summary, one line per reason for the tests that skipped, so a
// run says why its skips happened. A test's reason is its `ctx.skip(note)`; for `it.skipIf` /
// `describe.skipIf`, which carry none, the `skipping: …` lines its file printed (env-core's
// sharedDataFiles and the other data helpers print one each). `.ci/run` sums these lines over projects.
import type { Reporter, TestModule, UserConsoleLog } from 'vitest/node';

/** The prefix a test file's console line gives a skip reason (printed by the data helpers). */
const SKIPPING = 'skipping: ';

/** `  skipped 24: <reason>`, the line `.ci/run` looks for; exported for the reporter's test. */
export function skipLine(count: number, reason: string): string {
  return `  skipped ${count}: ${reason}`;
}

/** Counts per reason of the skipped tests of these modules, most frequent first. */
export function skipReasons(modules: readonly TestModule[], printed: ReadonlyMap<string, readonly string[]>): [string, number][] {
  const counts = new Map<string, number>();
  for (const module of modules) {
    // Lines printed while the file was collected carry the module's id; lines inside a suite or test, theirs.
    const ids = [module.id, ...[...module.children.allSuites()].map((s) => s.id), ...[...module.children.allTests()].map((t) => t.id)];
    const fileReasons = [...new Set(ids.flatMap((id) => printed.get(id) ?? []))];
    for (const test of module.children.allTests('skipped')) {
      if (test.options.mode === 'todo') continue; // vitest counts todos apart from skips
      const result = test.result();
      const note = result.state === 'skipped' ? result.note : undefined;
      const reason = note ?? (fileReasons.length > 0 ? fileReasons.join(' / ') : `no reason printed (it.skip or skipIf in ${module.relativeModuleId})`);
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export default class SkipReasonsReporter implements Reporter {
  /** `skipping: …` lines by the id of the task that printed them. */
  readonly #printed = new Map<string, string[]>();

  onUserConsoleLog(log: UserConsoleLog): void {
    if (log.taskId === undefined) return;
    for (const line of log.content.split('\n')) {
      if (!line.startsWith(SKIPPING)) continue;
      const lines = this.#printed.get(log.taskId) ?? [];
      lines.push(line.slice(SKIPPING.length).trim());
      this.#printed.set(log.taskId, lines);
    }
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const reasons = skipReasons(modules, this.#printed);
    if (reasons.length === 0) return;
    const total = reasons.reduce((n, [, c]) => n + c, 0);
    process.stdout.write(`\n Skipped ${total} test${total === 1 ? '' : 's'}, by reason:\n${reasons.map(([r, c]) => skipLine(c, r)).join('\n')}\n`);
  }
}
