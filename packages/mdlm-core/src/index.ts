// mdlm-core: the engine (typed graph, autodiff, ONNX emission, ORT runtime) and the models.
export * from './graph/index.js';
export { encodeModel, type OnnxModel, type OnnxNode, type OnnxValueInfo, type OnnxInitializer, type OnnxAttribute } from './onnx/model.js';
export * from './nn/index.js';
export * from './optim/index.js';
export * from './train/index.js';
export * from './runtime/index.js';
export * from './objectives/index.js';
export * from './checkpoint/index.js';
export * from './sampling/index.js';
export * from './hub/index.js';
