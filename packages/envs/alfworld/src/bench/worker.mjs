// Piscina worker entry: loads the TypeScript sources through tsx, with @diffworld/* resolved via
// the "@diffworld/source" condition (as apps/cli/bin does), then plays the episodes it is sent.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

register('./source-conditions.mjs', import.meta.url);
registerTsx();
const { playEpisodes } = await import('./episodes.ts');

export default function run(batch) {
  return playEpisodes(batch);
}
