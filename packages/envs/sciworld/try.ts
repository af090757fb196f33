import { expertActions } from './src/expert/expert.js';
import { BUILDERS } from './src/tasks/builders.js';
import { taskInfo } from './src/tasks/catalog.js';
const preset = (process.argv[2] ?? 'easy') as 'easy';
for (const name of Object.keys(BUILDERS)) {
  const n = taskInfo(name).variations; let bad = 0; let first = ''; let steps = 0;
  for (let v = 0; v < n; v++) {
    try { const r = expertActions(name, v, preset); steps += r.actions.length; if (r.score !== 100) { bad++; if (!first) first = `v${v} score ${r.score}: ${r.actions.join(' | ')}`; } }
    catch (e) { bad++; if (!first) first = `v${v} ${(e as Error).message}`; }
  }
  console.log(name, n, 'bad', bad, 'meanSteps', (steps / n).toFixed(1), first.slice(0, 600));
}
