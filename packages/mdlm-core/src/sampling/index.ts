export { SamplingError, type SamplingIssueCode } from './errors.js';
export {
  applyRepetitionPenalty,
  argmax,
  checkTokenSampling,
  chooseToken,
  GREEDY,
  logSumExp,
  processLogits,
  softmax64,
  tokenLogProb,
  type ChooseOptions,
  type TokenChoice,
  type TokenSampling,
} from './token.js';
export { selectUnmask, transferSchedule, UNMASKING_STRATEGIES, type UnmaskingStrategy } from './unmasking.js';
export type { BidirectionalModel, BlockDecoder, BlockDiffusionModel, BlockItem, CausalDecoder, CausalItem, CausalModel, GreedyChoices } from './model.js';
export { cutAtStop, leftPadToBlock, type Anchor, type SampleRequest, type SampleResult, type SampleStats } from './request.js';
export { sampleBlockDiffusion, type BlockDiffusionOptions } from './block-diffusion.js';
export { sampleAutoregressive, type AutoregressiveOptions, type AutoregressiveRequest } from './autoregressive.js';
export { ContinuousAutoregressive, type ContinuousSubmitOptions, type RowOptions } from './continuous.js';
export { sampleLlada, type LladaOptions } from './llada.js';
export { OnnxBidirectionalModel, OnnxBlockDiffusionModel, OnnxCausalModel, type DecoderKind, type OnnxModelOptions, type Weights } from './onnx-models.js';
export { ResidentDecoder, ResidentPool, ResidentRow, type ResidentDecoderOptions, type ResidentDtype, type ResidentPass } from './resident-decoder.js';
export { sdarDecoding, SDAR_DEFAULTS, type BlockDecodingSettings } from './sdar.js';
export { OnnxDecoder, PastSlot, RowCache, type DecoderOptions, type FloatDtype, type RowPass } from './onnx-decoder.js';
export {
  ChatGenerator,
  GENERATION_OBJECTIVES,
  type ChatRequest,
  type ChatSession,
  type ChatSessionOptions,
  type ChatSubmitOptions,
  type FinishReason,
  type Generation,
  type GenerateOptions,
  type GenerationObjective,
  type GenerationStats,
  type GeneratorLoadOptions,
  type GeneratorParts,
  type TextAnchor,
} from './generator.js';
