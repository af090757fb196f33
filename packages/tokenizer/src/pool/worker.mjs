// Piscina worker entry when running from TypeScript sources (vitest, tsx): worker threads start
// without the parent's TypeScript loader, so register tsx here, then load the task module.
import { register } from 'tsx/esm/api';

register();
const { runShardTask } = await import('./task.ts');

export default runShardTask;
