// @diffworld/grpo: GRPO (and SFT) of agents on mdlm-core's engine — advantages, the loss graph,
// the update runner, rollouts with token-level loss masks, and the training loop.
export { GrpoError, type GrpoErrorCode } from './errors.js';
export { groupAdvantages, unbiasedStd, ADVANTAGE_EPS, type ScaleRewards, type AdvantageResult } from './advantages.js';
export { policyLogits, sampledLogProbs, entropyOf } from './policy.js';
export {
  grpoLoss,
  grpoBatchSpec,
  grpoInputs,
  grpoOutputs,
  lossNormalizer,
  validateLossConfig,
  GRPO_LOSS_DEFAULTS,
  type GrpoLossConfig,
  type LossAggregation,
} from './loss.js';
export { PolicyScorer, type ScorerOptions, type ParamValues, type FloatArray } from './score.js';
export { GraphUpdater, type UpdaterOptions, type UpdateResult, type MicroResult } from './updater.js';
export { type SequenceRow, type GrpoRow, packSequences, packGrpo, sftBatchSpec, sftLoss } from './batch.js';
export {
  rollout,
  demonstration,
  scorerPolicy,
  type TurnCodec,
  type RolloutLimits,
  type Episode,
  type NextTokenPolicy,
  type RolloutJob,
} from './rollout.js';
export { GrpoTrainer, type GrpoTrainerState, type GrpoConfig, type DynamicSampling, type UpdateMetrics, type GrpoStepMetrics } from './trainer.js';
export { SftTrainer, trainSft, sftExample, episodeTargets, sftShape, sftPolicyDir, type SftConfig, type SftRunOptions, type SftRunResult } from './sft.js';
export {
  LineWalkEnv,
  SimulatedLineWalk,
  LineWalkOracle,
  LineWalkCodec,
  LINE_WALK_VOCAB,
  LINE_CELLS,
  lineWalkLayout,
  lineWalkTasks,
  lineWalkExpert,
  parseLineObservation,
} from './toy/line-walk.js';
export { ChatTurnCodec, type ChatCodecOptions } from './chat-codec.js';
// Rollout sources (the real engine or a world model behind the env's agent harness), the
// evaluation of a policy's weights on held-out tasks, policies on disk.
export { AgentFramedEnv, expertDemonstrations, realEngineSource, worldModelSource, applySuiteReward, type RolloutSource, type WorldModelSource, type TransitionCounts } from './sources.js';
export { evaluatePolicy, evalTasks, mergeEvaluations, type PolicyEvalOptions } from './evaluate.js';
export { savePolicy, loadPolicy, type StoredPolicy } from './policy-store.js';
