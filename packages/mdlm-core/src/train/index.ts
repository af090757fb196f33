export { buildFusedStep, buildGradStep, buildAccumulateStep, buildApplyStep, stepNames, type ParamSpec, type InputSpec, type LossFn, type StepGraphSpec } from './step.js';
export { StepRunner, type StepRunnerOptions, type StepResult } from './runner.js';
