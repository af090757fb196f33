export { PyFloat, pyFloat, pyFloatRepr } from './float.js';
export { pyJsonDumps, compareCodePoints, type PyJsonValue, type PyJsonDumpsOptions } from './dumps.js';
export { pyJsonParse, type PyJsonParseOptions } from './parse.js';
