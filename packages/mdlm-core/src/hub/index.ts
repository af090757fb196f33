// Models from the Hugging Face Hub: `org/name[@revision]` resolved into the huggingface_hub cache
// (shared with Python). The local Hub the tests run against is in the testing entry.
export { HubError, type HubIssue, type HubIssueCode } from './errors.js';
export { DEFAULT_HUB_ENDPOINT, type HubSettings, hfHome, hubSettings } from './settings.js';
export { type HubModelRef, parseHubModelRef, repoFolderName } from './reference.js';
export { RepoCache } from './cache.js';
export type { DownloadProgress, RemoteFile } from './download.js';
export { OPTIONAL_MODEL_FILES, type ResolveModelOptions, type ResolvedModel, isHubModelSpec, resolveModelDir } from './resolve.js';
export { hubProgressLogger } from './progress.js';
