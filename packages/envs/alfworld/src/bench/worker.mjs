// Piscina worker entry: worker threads start without the parent's TypeScript loader, so register
// tsx here (@diffworld/* resolve through the --conditions flag the pool passes), then play the
// episodes it is sent.
import { register } from 'tsx/esm/api';

register();
const { playEpisodes } = await import('./episodes.ts');

export default function run(batch) {
  return playEpisodes(batch);
}
