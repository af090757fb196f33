export { silu, geluTanh, rsqrt, linear, rmsNorm, ropeTables, applyRope, repeatKv, attention, swiglu, crossEntropy, oneHot } from './functional.js';
export { additiveMask, causalMask, blockCausalMask, fullMask } from './masks.js';
export { type TransformerConfig, type ForwardInputs, transformerParams, transformerForward, validateConfig, headDimOf } from './transformer.js';
