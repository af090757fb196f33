// ORT's C API through FFI: bound sessions (IO binding, CUDA graphs) and the copies around them.
export { loadCApi, ORT_API_VERSION, type CApi } from './library.js';
export { BoundSession, BoundTensor, Binding, hostStaging, type BoundProvider, type BoundSessionOptions } from './session.js';
export { Copier, type CopySlot } from './copy.js';
