// @diffworld/experiments: the runs a user launches — `diffworld grpo train` (the agent pipeline
// of one environment: tokenizer, world model, SFT, GRPO in the world model and in the real engine,
// held-out evaluation, report) and `diffworld repro` (the paper's two questions) — as stages of
// one content-hashed runner, read from one config schema.
export { experimentSchema, type ExperimentConfig, type WorldModelSettings, type WorldModelSampling, type GrpoSettings, type SteeringSettings } from './config/schema.js';
export { resolveExperimentConfig, loadExperimentConfig, readConfigFile, presetFile, configsDir, isPresetName, PRESETS, type ResolveOptions } from './config/resolve.js';
export { StageRunner, stageHash, canonicalJson, artefact, type StageOutcome } from './stages/runner.js';
export { ExperimentContext } from './stages/context.js';
export { runGrpoTrain, agentPipeline, worldModelStages, POLICY_NAMES, type GrpoTrainOptions, type GrpoTrainResult, type AgentPipelineResult } from './grpo-train.js';
export { pipelineSummaryLine, renderPipelineMarkdown, renderComparisonHtml, uninformative, MIN_EPISODES, type PipelineReport } from './report/pipeline-report.js';
export { runRepro, REPRO_OBJECTIVES, type ReproObjective, type ReproOptions, type ReproRun, type ReproResults } from './repro/repro.js';
export { renderReproMarkdown, renderReproHtml } from './repro/report.js';
export { checkMemoryBudget, estimateTrainingBytes, memoryBudgetBytes, pipelineGraphs, type GraphShape } from './memory.js';
export { ExperimentError, type ExperimentErrorCode } from './errors.js';
export { EnvPool } from './env-pool.js';
export { loadInitialPolicy, type InitialPolicy } from './policy-init.js';
export { openWorldModel, type WorldModelSpec } from './world-model.js';
export { BudgetedWorldModel, fitWorldModelRow, fitPrompt, limitRecords, TEMPLATE_TOKENS, type RowFit, type PromptParts, type PromptBudget, type CountTokens } from './wm-budget.js';
