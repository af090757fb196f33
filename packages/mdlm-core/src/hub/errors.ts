// The Hub layer's one error class. Every failure names the repository, the file when there is one,
// what went wrong and what to do; all of them are about the user's input or environment (a repo id,
// a token, the network), so the CLI maps them to exit code 2.

export type HubIssueCode =
  | 'bad_reference' // not a local directory and not `org/name[@revision]`
  | 'bad_token' // HF_TOKEN is not a Hub access token
  | 'gated' // 401/403 on a gated or private repository (no token, or a token without access)
  | 'repo_not_found' // no such repository (or private and the token cannot see it)
  | 'revision_not_found' // the repository has no such branch, tag or commit
  | 'entry_not_found' // a file the model needs is not in the repository
  | 'incomplete_repo' // the repository lacks config.json or safetensors weights
  | 'offline' // HF_HUB_OFFLINE=1 (or the Hub unreachable) and the cache does not hold the model
  | 'unreachable' // the endpoint cannot be reached (DNS, refused, reset before any data)
  | 'interrupted' // the connection was lost in the middle of a file
  | 'truncated' // the server ended a file before its size
  | 'checksum' // size or sha256 / git hash of a downloaded file differs from the Hub's
  | 'http' // any other HTTP failure
  | 'bad_response' // the server's answer is not what the Hub protocol promises
  | 'cache'; // the cache directory cannot be used (permissions, a foreign file in the way)

export interface HubIssue {
  code: HubIssueCode;
  /** `org/name` (with `@revision` when one was given), or the reference as typed. */
  repo: string;
  /** The file inside the repository, when the problem is about one file. */
  file?: string;
  message: string;
}

const HINTS: Record<HubIssueCode, string> = {
  bad_reference: 'pass a checkpoint directory that exists, or a Hub model id such as Qwen/Qwen3-0.6B or org/name@revision.',
  bad_token: 'set HF_TOKEN to an access token from your Hub settings (it starts with hf_).',
  gated: 'accept the model’s terms on its Hub page, then set HF_TOKEN (or log in with `hf auth login`) to a token that has access.',
  repo_not_found: 'check the spelling of the id; for a private repository set HF_TOKEN.',
  revision_not_found: 'check the branch, tag or commit after @.',
  entry_not_found: 'the repository is incomplete at this revision; pick another revision or report it to its owner.',
  incomplete_repo: 'DiffWorld loads config.json + safetensors weights; convert other formats with transformers (save_pretrained(safe_serialization=True)).',
  offline: 'run once with network access (without HF_HUB_OFFLINE=1) so the files reach the cache, or pass a local directory.',
  unreachable: 'check the network and HF_ENDPOINT; with the files already cached, HF_HUB_OFFLINE=1 uses them without asking the Hub.',
  interrupted: 'run the command again: the download resumes from the partial file.',
  truncated: 'run the command again: the download resumes from the partial file.',
  checksum: 'run the command again; the bad file was removed from the cache.',
  http: 'retry later; if it persists, check HF_ENDPOINT.',
  bad_response: 'check that HF_ENDPOINT points at a Hugging Face Hub (or a mirror of its API).',
  cache: 'check HF_HOME / HF_HUB_CACHE and the permissions of that directory.',
};

export class HubError extends Error {
  override readonly name = 'HubError';
  /** Every Hub failure is the user's input or environment: the CLI maps it to exit code 2. */
  readonly badInput = true;
  readonly code: HubIssueCode;
  constructor(readonly issue: HubIssue) {
    const where = issue.file === undefined ? issue.repo : `${issue.repo}: ${issue.file}`;
    super(`[hub] ${where}: ${issue.message}\n  hint: ${HINTS[issue.code]}`);
    this.code = issue.code;
  }
}
