// mdlm-core's test support, the package's `@diffworld/mdlm-core/testing` entry: helpers and
// fixtures for the tests and benches of mdlm-core and of the projects above it. Nothing here is in
// the main entry, and tools/src/boundaries.ts refuses imports of it from other projects' production code.
export { compile, type Runner, type RunOutput } from './ort.js';
export { rng, randn } from './random.js';
export { decodeModelSummary } from './onnx-summary.js';
export {
  TINY_WM_TOKENIZER,
  tinyWmTokenizerJson,
  tinyWmTokenizer,
  tinyWmModel,
  TINY_WM_MODEL,
  TINY_WM_RUN,
  tinyWmConfig,
  tinyRunConfig,
  writeTransitions,
  transitionsDir,
  alfworldRowsFile,
  type TinyWorldModelOptions,
  trainTinyWorldModel,
} from './world-model.js';
export { TINY_QWEN3, type TinyQwen3Options, saveTinyQwen3 } from './tiny-qwen3.js';
export { TINY_BD3, TINY_BD3_MODEL, tinyBd3Problem } from './tiny-bd3.js';
export { type LocalHub, type LocalHubFault, type LocalHubRepo, type LocalHubRequest, startLocalHub } from './local-hub.js';
