// `org/name[@revision]`: a model on the Hub, as users type it after --init or --model.

export interface HubModelRef {
  /** `org/name`. */
  repoId: string;
  /** A branch, tag or 40-hex commit; `main` when none was given. */
  revision: string;
  /** Whether the reference named the revision itself. */
  explicitRevision: boolean;
}

// huggingface_hub's validate_repo_id: word characters, '-' and '.', at most 96 characters, no '--'
// or '..' (the cache folder joins the parts with '--'), not starting or ending with '-' or '.'.
const PART = /^(?![-.])[\w.-]+(?<![-.])$/;
export const COMMIT_HASH = /^[0-9a-f]{40}$/;

/** The Hub reference a string stands for, or undefined when it is not of that shape. */
export function parseHubModelRef(spec: string): HubModelRef | undefined {
  const at = spec.indexOf('@');
  const id = at < 0 ? spec : spec.slice(0, at);
  const revision = at < 0 ? '' : spec.slice(at + 1);
  const parts = id.split('/');
  if (parts.length !== 2 || id.length > 96 || id.includes('--') || id.includes('..')) return undefined;
  if (!parts.every((p) => PART.test(p))) return undefined;
  if (at >= 0 && (revision === '' || /\s|\.\.|^\/|\/$/.test(revision))) return undefined;
  return { repoId: id, revision: revision || 'main', explicitRevision: at >= 0 };
}

/** `models--org--name`: the repository's folder in the cache. */
export function repoFolderName(repoId: string): string {
  return ['models', ...repoId.split('/')].join('--');
}
