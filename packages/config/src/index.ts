// @diffworld/config: settings declared once as zod schemas (defaults, types, ranges) and read with
// errors that name the key path. Packages build their schemas with the `z` re-exported here, so
// the whole workspace uses one zod.
export { z } from 'zod';
export { parseConfig, configIssues, ConfigError, keyPath, knownKeys, schemaAt, type ConfigIssue } from './parse.js';
export { editDistance, closestName } from './suggest.js';
export { mergeSettings, isPlainObject } from './merge.js';
