// Piscina worker: registers tsx so it can load this package's TypeScript, then runs batches of
// expert episodes.
import { register } from 'tsx/esm/api';

// @diffworld/* resolve through the --conditions flag the pool passes in execArgv.
register();
const { runEpisodes } = await import('./episodes.ts');

export default function (batch) {
  return runEpisodes(batch);
}
