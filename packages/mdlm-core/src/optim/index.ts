export {
  adamwStep,
  clipByGlobalNorm,
  globalNormClip,
  clippedAdamwMultiTensor,
  MAX_STACK,
  type MultiTensorGrouping,
  ADAMW_DEFAULTS,
  type AdamWConfig,
  type AdamWSlot,
  type AdamWResult,
} from './adamw.js';
export { constant, constantWithWarmup, cosineWithWarmup, type Schedule } from './schedule.js';
