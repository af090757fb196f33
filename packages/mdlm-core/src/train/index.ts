export {
  buildFusedStep,
  buildGradStep,
  buildAccumulateStep,
  buildApplyStep,
  stepNames,
  scalerNames,
  LOSS_SCALING_DEFAULTS,
  type ParamSpec,
  type InputSpec,
  type LossFn,
  type StepGraphSpec,
  type OptimizerLayout,
} from './step.js';
export { StepRunner, autocastFor, opsetFor, boundStepSupport, defaultTrainingPath, type StepRunnerOptions, type StepResult, type Precision, type ScalerState } from './runner.js';
export { buildLoopStepModel, loopNames } from './loop-step.js';
export {
  OBJECTIVES,
  chatExample,
  promptIds,
  eosPadId,
  targetSpans,
  packRows,
  paddingWaste,
  materialize,
  BatchPlan,
  type Objective,
  type TrainExample,
  type ExampleOptions,
  type DropReason,
  type Span,
  type PackedRow,
  type PackedBatch,
} from './data.js';
export { objectiveStepSpec, objectiveFeeds, attentionBias, modelLength, type ObjectiveSpec } from './objective.js';
export { TRAIN_DEFAULTS, SCHEDULES, MASK_RANGE_PRESETS, trainConfigSchema, resolveTrainConfig, resumeMismatches, type TrainConfig, type ScheduleName } from './config.js';
export { trainWorldModel, initialWeights, TrainError, type TrainRunOptions, type TrainSummary } from './trainer.js';
