// Checkpoints: safetensors files (streaming, F32/F16/BF16 on disk), shards with an index, and
// checkpoint directories in the Hugging Face layout.
export { CheckpointError, type CheckpointIssue, type CheckpointIssueCode } from './errors.js';
export { bfloat16BitsToNumber, decodeBfloat16, decodeFloat16, encodeBfloat16, encodeFloat16, float32ToBfloat16Bits } from './float-bits.js';
export {
  MAX_HEADER_BYTES,
  SafetensorsFile,
  dtypeItemSize,
  iterateSafetensors,
  readSafetensors,
  readSafetensorsHeader,
  writeSafetensors,
  type FloatStorage,
  type LoadedData,
  type LoadedTensor,
  type ReadOptions,
  type SafetensorsDtype,
  type SafetensorsHeader,
  type SafetensorsTensorInfo,
  type StorageDtype,
  type TensorToWrite,
  type WritableData,
  type WriteSafetensorsOptions,
  type WrittenSafetensors,
} from './safetensors.js';
