export { silu, geluTanh, rsqrt, linear, linearHalf, rmsNorm, ropeTables, applyRope, applyRopeFused, type RopeCache, repeatKv, attention, swiglu, crossEntropy, oneHot } from './functional.js';
export { additiveMask, causalMask, blockCausalMask, fullMask } from './masks.js';
export {
  type TransformerConfig,
  type ForwardInputs,
  type ForwardOutputs,
  type KvPair,
  type AttentionNames,
  type HybridLayout,
  type LayerType,
  attentionLayerCount,
  convLayerCount,
  layerTypesOf,
  selfAttention,
  transformerParams,
  transformerForward,
  decoderForward,
  hfParamNames,
  validateConfig,
  headDimOf,
} from './transformer.js';
export {
  type ModelConfig,
  type ModelType,
  type RopeScaling,
  type RopeType,
  type TorchDtype,
  type Lfm2FfnSizing,
  type BlockDiffusionSpec,
  type SupportedModel,
  MODEL_TYPES,
  supportedModels,
  lfm2FfnDim,
  ConfigError,
  parseHfConfig,
  toHfConfig,
  validateModelConfig,
  hfArchitecture,
} from './config.js';
export { type RopeFrequencies, type RopeTables, ropeFrequencies, ropeTablesAt, ropeTablesRange, ropeAtPositions, ropeInputs } from './rope.js';
export { lfm2Params, lfm2Forward, shortConv, type ShortConvWeights } from './lfm2.js';
export { exportOnnxModel, ExportError, ONNX_FILE_LIMIT, type ExportOptions } from './export.js';
