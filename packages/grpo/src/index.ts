// @diffworld/grpo: GRPO (and SFT) of agents on mdlm-core's engine — advantages, the loss graph,
// the update runner, rollouts with token-level loss masks, and the training loop.
export { GrpoError, type GrpoErrorCode } from './errors.js';
export { groupAdvantages, unbiasedStd, ADVANTAGE_EPS, type ScaleRewards, type AdvantageResult } from './advantages.js';
export { policyLogits, sampledLogProbs, entropyOf } from './policy.js';
export {
  grpoLoss, grpoBatchSpec, grpoInputs, grpoOutputs, lossNormalizer, validateLossConfig, GRPO_LOSS_DEFAULTS, type GrpoLossConfig, type LossAggregation,
} from './loss.js';
export { PolicyScorer, type ScorerOptions, type ParamValues, type FloatArray } from './score.js';
export { GraphUpdater, type UpdaterOptions, type UpdateResult, type MicroResult } from './updater.js';
