// Piscina worker entry of EnvPool: worker threads start without the parent's TypeScript loader, so
// tsx is registered here; @diffworld/* resolve through the "@diffworld/source" export condition,
// passed as --conditions in the worker's execArgv (env-pool.ts).
import { register } from 'tsx/esm/api';

register();
const { serveShard } = await import('./env-worker-task.ts');

export default serveShard;
