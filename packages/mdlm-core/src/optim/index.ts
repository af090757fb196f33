export {
  adamwStep,
  clipByGlobalNorm,
  globalNormClip,
  clippedAdamwMultiTensor,
  clippedAdamwStacked,
  adamwMoments,
  multiTensorGroups,
  joinedShape,
  type StackGroup,
  type AdamWMoved,
  MAX_STACK,
  type MultiTensorGrouping,
  ADAMW_DEFAULTS,
  type AdamWConfig,
  type AdamWSlot,
  type AdamWResult,
} from './adamw.js';
export { constant, constantWithWarmup, cosineWithWarmup, type Schedule } from './schedule.js';
