// @diffworld/envs: the workspace's environments by name. Everything that plays an env by name (eval's
// runner and its worker threads, the experiments, the CLI, the servers) looks it up here and asks the
// suite for the rest; adding an environment is a package under packages/envs and one line in registry.ts.
export { ENV_SUITES, ENV_NAMES, envSuite, type EnvName } from './registry.js';
