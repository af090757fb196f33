// Piscina worker entry: worker threads start without the parent's TypeScript loader, so register
// tsx here. @diffworld/* packages resolve through their "@diffworld/source" export condition,
// which the pool passes as `--conditions` in the worker's execArgv (runner.ts), so no resolve hook
// is needed.
import { register } from 'tsx/esm/api';

register();
const { playChunk } = await import('./worker-task.ts');

export default playChunk;
