// ONNX Runtime's C API, called through koffi (a maintained FFI package with prebuilt binaries, MIT)
// against the very libonnxruntime.so.1 that onnxruntime-node ships and has already loaded. Why:
// onnxruntime-node has no CUDA-resident tensors, no IO binding and no CUDA graphs; the C API has
// all three, and they are what lets a training step keep its state on the GPU and launch its
// ~1,400 kernels as one graph instead of one host call per node (see the package README).
//
// Only the functions the bound sessions need are declared. Each is reached by its slot in the
// `OrtApi` table: the table only ever grows at its end, so the slots below hold for every ORT
// that serves ORT_API_VERSION (onnxruntime-node 1.29.0 is pinned by the workspace).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ortLibraryDir } from '../providers.js';

/** The API version asked of OrtGetApiBase (onnxruntime 1.29 serves up to its own). */
export const ORT_API_VERSION = 23;

/** Slots of the OrtApi function table used here (onnxruntime_c_api.h, struct order). */
const SLOT = {
  GetErrorMessage: 2,
  CreateEnv: 3,
  CreateSessionFromArray: 8,
  CreateSessionOptions: 10,
  EnableProfiling: 14,
  SetSessionGraphOptimizationLevel: 23,
  SetIntraOpNumThreads: 24,
  SetInterOpNumThreads: 25,
  SessionGetInputCount: 30,
  SessionGetOutputCount: 31,
  SessionGetInputName: 36,
  SessionGetOutputName: 37,
  CreateRunOptions: 39,
  CreateTensorAsOrtValue: 48,
  GetTensorMutableData: 51,
  CreateMemoryInfo: 68,
  AllocatorFree: 76,
  GetAllocatorWithDefaultOptions: 78,
  ReleaseStatus: 93,
  ReleaseMemoryInfo: 94,
  ReleaseSession: 95,
  ReleaseValue: 96,
  ReleaseRunOptions: 97,
  ReleaseSessionOptions: 100,
  SessionEndProfiling: 110,
  AddSessionConfigEntry: 130,
  CreateAllocator: 131,
  ReleaseAllocator: 132,
  RunWithBinding: 133,
  CreateIoBinding: 134,
  ReleaseIoBinding: 135,
  BindInput: 136,
  BindOutput: 137,
  AddRunConfigEntry: 165,
  SynchronizeBoundInputs: 202,
  SynchronizeBoundOutputs: 203,
  SessionOptionsAppendExecutionProvider_CUDA_V2: 204,
  CreateCUDAProviderOptions: 205,
  UpdateCUDAProviderOptions: 206,
  ReleaseCUDAProviderOptions: 208,
} as const;

/** C prototypes, with every ORT handle as an opaque `void *` and OrtStatus* as the return. */
const PROTO: { readonly [K in keyof typeof SLOT]: string } = {
  GetErrorMessage: 'const char *GetErrorMessage(void *status)',
  CreateEnv: 'void *CreateEnv(int level, const char *logid, _Out_ void **env)',
  CreateSessionFromArray: 'void *CreateSessionFromArray(void *env, const void *data, size_t len, void *options, _Out_ void **session)',
  CreateSessionOptions: 'void *CreateSessionOptions(_Out_ void **options)',
  EnableProfiling: 'void *EnableProfiling(void *options, const char *prefix)',
  SetSessionGraphOptimizationLevel: 'void *SetSessionGraphOptimizationLevel(void *options, int level)',
  SetIntraOpNumThreads: 'void *SetIntraOpNumThreads(void *options, int n)',
  SetInterOpNumThreads: 'void *SetInterOpNumThreads(void *options, int n)',
  SessionGetInputCount: 'void *SessionGetInputCount(void *session, _Out_ size_t *n)',
  SessionGetOutputCount: 'void *SessionGetOutputCount(void *session, _Out_ size_t *n)',
  SessionGetInputName: 'void *SessionGetInputName(void *session, size_t i, void *allocator, _Out_ void **name)',
  SessionGetOutputName: 'void *SessionGetOutputName(void *session, size_t i, void *allocator, _Out_ void **name)',
  CreateRunOptions: 'void *CreateRunOptions(_Out_ void **options)',
  CreateTensorAsOrtValue: 'void *CreateTensorAsOrtValue(void *allocator, const int64_t *shape, size_t rank, int type, _Out_ void **value)',
  GetTensorMutableData: 'void *GetTensorMutableData(void *value, _Out_ void **data)',
  CreateMemoryInfo: 'void *CreateMemoryInfo(const char *name, int allocatorType, int device, int memType, _Out_ void **info)',
  AllocatorFree: 'void *AllocatorFree(void *allocator, void *p)',
  GetAllocatorWithDefaultOptions: 'void *GetAllocatorWithDefaultOptions(_Out_ void **allocator)',
  AddSessionConfigEntry: 'void *AddSessionConfigEntry(void *options, const char *key, const char *value)',
  ReleaseStatus: 'void ReleaseStatus(void *p)',
  ReleaseMemoryInfo: 'void ReleaseMemoryInfo(void *p)',
  ReleaseSession: 'void ReleaseSession(void *p)',
  ReleaseValue: 'void ReleaseValue(void *p)',
  ReleaseRunOptions: 'void ReleaseRunOptions(void *p)',
  ReleaseSessionOptions: 'void ReleaseSessionOptions(void *p)',
  CreateAllocator: 'void *CreateAllocator(void *session, void *info, _Out_ void **allocator)',
  ReleaseAllocator: 'void ReleaseAllocator(void *p)',
  RunWithBinding: 'void *RunWithBinding(void *session, void *runOptions, void *binding)',
  CreateIoBinding: 'void *CreateIoBinding(void *session, _Out_ void **binding)',
  ReleaseIoBinding: 'void ReleaseIoBinding(void *p)',
  BindInput: 'void *BindInput(void *binding, const char *name, void *value)',
  BindOutput: 'void *BindOutput(void *binding, const char *name, void *value)',
  AddRunConfigEntry: 'void *AddRunConfigEntry(void *options, const char *key, const char *value)',
  SynchronizeBoundInputs: 'void *SynchronizeBoundInputs(void *binding)',
  SynchronizeBoundOutputs: 'void *SynchronizeBoundOutputs(void *binding)',
  CreateCUDAProviderOptions: 'void *CreateCUDAProviderOptions(_Out_ void **options)',
  UpdateCUDAProviderOptions: 'void *UpdateCUDAProviderOptions(void *options, const char **keys, const char **values, size_t n)',
  ReleaseCUDAProviderOptions: 'void ReleaseCUDAProviderOptions(void *p)',
  SessionOptionsAppendExecutionProvider_CUDA_V2: 'void *SessionOptionsAppendExecutionProvider_CUDA_V2(void *options, void *cudaOptions)',
  SessionEndProfiling: 'void *SessionEndProfiling(void *session, void *allocator, _Out_ void **path)',
};

// biome-ignore lint/suspicious/noExplicitAny: koffi's decoded functions take and return untyped values
type Fn = ((...args: any[]) => any) & { async: (...args: any[]) => void };

/** The declared functions, by name; `Koffi` is the FFI module itself (decode, pointers). */
export interface CApi {
  readonly fn: { readonly [K in keyof typeof SLOT]: Fn };
  readonly koffi: KoffiModule;
  /** Throws an Error with ORT's message when `status` is not null (and releases the status). */
  check(status: unknown, what: string): void;
  /** The process's OrtEnv (ORT keeps one per process, shared with onnxruntime-node). */
  readonly env: unknown;
  /** The default CPU allocator, for names ORT hands out. */
  readonly defaultAllocator: unknown;
  readonly version: string;
}

/** What koffi exports that is used here. */
export interface KoffiModule {
  load(path: string): { func(decl: string): Fn };
  proto(decl: string): unknown;
  decode(ptr: unknown, type: unknown, len?: number): unknown;
  struct(name: string, def: Record<string, string>): unknown;
  /** An ArrayBuffer over native memory, without a copy. */
  view(ptr: unknown, len: number): ArrayBuffer;
  config(settings?: Record<string, number>): Record<string, number>;
}

let loaded: { api?: CApi; error?: string } | undefined;

/**
 * The C API, or why it cannot be reached (koffi missing, the library missing, an ORT without
 * API version ORT_API_VERSION). Loaded once per process.
 */
export function loadCApi(): { api?: CApi; error?: string } {
  loaded ??= tryLoad();
  return loaded;
}

function tryLoad(): { api?: CApi; error?: string } {
  let koffi: KoffiModule;
  try {
    koffi = createRequire(import.meta.url)('koffi') as KoffiModule;
  } catch (e) {
    return { error: `the koffi package does not load (${(e as Error).message.split('\n')[0]}); run \`npm ci\`` };
  }
  // ORT's runs go deep (graph capture, the executor, kernels on the calling thread): give the
  // stacks koffi calls on the room of a thread's stack, not its 128 KiB async default.
  try {
    koffi.config({ ...koffi.config(), sync_stack_size: 8 << 20, async_stack_size: 8 << 20 });
  } catch {
    // Settings are fixed once koffi has made a call (another user in this process): keep its own.
  }
  const libPath = join(ortLibraryDir(), 'libonnxruntime.so.1');
  if (!existsSync(libPath)) return { error: `${libPath} is missing; run \`npm ci\`` };
  try {
    const lib = koffi.load(libPath);
    const base = koffi.decode(lib.func('void *OrtGetApiBase()')(), koffi.struct('OrtApiBase', { GetApi: 'void *', GetVersionString: 'void *' })) as {
      GetApi: unknown;
      GetVersionString: unknown;
    };
    const version = (koffi.decode(base.GetVersionString, koffi.proto('const char *GetVersionString()')) as Fn)() as string;
    const apiPtr = (koffi.decode(base.GetApi, koffi.proto('void *GetApi(uint32_t version)')) as Fn)(ORT_API_VERSION);
    if (!apiPtr) return { error: `ONNX Runtime ${version} does not serve C API version ${ORT_API_VERSION}` };
    const slots = Math.max(...Object.values(SLOT)) + 1;
    const table = koffi.decode(apiPtr, 'void *', slots) as unknown[];
    const fn = {} as Record<keyof typeof SLOT, Fn>;
    for (const name of Object.keys(SLOT) as (keyof typeof SLOT)[]) fn[name] = koffi.decode(table[SLOT[name]], koffi.proto(PROTO[name])) as Fn;
    const check = (status: unknown, what: string) => {
      if (!status) return;
      const message = fn.GetErrorMessage(status) as string;
      fn.ReleaseStatus(status);
      throw new Error(`ONNX Runtime (C API) ${what}: ${message}`);
    };
    const envOut = [null];
    check(fn.CreateEnv(3, 'diffworld', envOut), 'CreateEnv');
    const allocOut = [null];
    check(fn.GetAllocatorWithDefaultOptions(allocOut), 'GetAllocatorWithDefaultOptions');
    return { api: { fn, koffi, check, env: envOut[0], defaultAllocator: allocOut[0], version } };
  } catch (e) {
    return { error: `ONNX Runtime's C API is not reachable through koffi: ${(e as Error).message}` };
  }
}
