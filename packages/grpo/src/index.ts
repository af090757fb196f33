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
export { GrpoTrainer, type GrpoTrainerState, type GrpoConfig, type UpdateMetrics, type GrpoStepMetrics } from './trainer.js';
export { SftTrainer, type SftConfig } from './sft.js';
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
// The runner of `nx run grpo:train:<env>`: stages in a run directory, rollout sources, the report.
export {
  resolvePipelineConfig,
  defaultPipelineConfig,
  type PipelineConfig,
  type TokenizerStage,
  type WorldModelStage,
  type PolicyStage,
  type SftStage,
  type EvalStage,
  type GrpoStage,
  type RolloutStage,
} from './pipeline/config.js';
export { runGrpoPipeline, type PipelineOptions, type PipelineResult } from './pipeline/pipeline.js';
export { AgentFramedEnv, realEngineSource, worldModelSource, applySuiteReward, type RolloutSource } from './pipeline/sources.js';
export { openWorldModel, type WorldModelSpec, type WorldModelSampling } from './pipeline/world-model.js';
export { evaluatePolicy, mergeEvaluations, type PolicyEvalOptions } from './pipeline/evaluate.js';
export { savePolicy, loadPolicy, type StoredPolicy } from './pipeline/policy-store.js';
export { pipelineSummary, pipelineSummaryLine, renderPipelineMarkdown, renderComparisonHtml, type PipelineReport } from './pipeline/report.js';
export { fitWorldModelRow, fitPrompt, limitRecords, BudgetedWorldModel, TEMPLATE_TOKENS, type RowFit, type PromptParts, type PromptBudget, type CountTokens } from './pipeline/wm-budget.js';
export { checkMemoryBudget, estimateTrainingBytes, memoryBudgetBytes, pipelineGraphs, type GraphShape } from './pipeline/memory.js';
export { EnvPool } from './pipeline/env-pool.js';
// `diffworld repro <env>`: the paper's two questions at small scale, as content-addressed stages.
export { resolveReproConfig, defaultReproConfig, REPRO_OBJECTIVES, type ReproConfig, type ReproObjective } from './repro/config.js';
export { runRepro, type ReproOptions, type ReproRun, type ReproResults } from './repro/repro.js';
export { cachedStage, stageHash, canonicalJson, type StageOutcome } from './repro/cache.js';
export { renderReproMarkdown, renderReproHtml } from './repro/report.js';
