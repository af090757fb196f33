// Piscina worker: registers tsx and the source-condition hook so it can load this package's
// TypeScript, then runs batches of expert episodes.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

register('./source-conditions.mjs', import.meta.url);
registerTsx();
const { runEpisodes } = await import('./episodes.ts');

export default function (batch) {
  return runEpisodes(batch);
}
