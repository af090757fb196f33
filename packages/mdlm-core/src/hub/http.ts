// HTTP failures of the Hub, typed. The Hub says what went wrong in X-Error-Code (GatedRepo,
// RepoNotFound, RevisionNotFound, EntryNotFound) and a JSON body {"error": "..."}; its status codes
// alone are ambiguous (a missing repo answers 401 to anonymous callers, so private repos stay hidden).
import { HubError, type HubIssueCode } from './errors.js';

/** Turns a non-2xx answer into the HubError it means. */
export async function errorFromResponse(res: Response, repo: string, file?: string): Promise<HubError> {
  const errorCode = res.headers.get('x-error-code') ?? '';
  let detail = res.headers.get('x-error-message') ?? '';
  try {
    const text = await res.text();
    try {
      const body = JSON.parse(text) as { error?: unknown; message?: unknown };
      const m = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : '';
      if (m) detail = m;
    } catch {
      if (!detail && text.length < 300) detail = text.trim();
    }
  } catch {
    // The body could not be read; the status still says enough.
  }
  const status = res.status;
  let code: HubIssueCode;
  let message: string;
  // Without X-Error-Code (a mirror that does not send it), the message is the only clue.
  if (errorCode === 'GatedRepo' || (!errorCode && (status === 401 || status === 403) && /gated|restricted/i.test(detail))) {
    code = 'gated';
    message = `${status} ${status === 401 ? 'the repository is gated or private and no token was sent' : 'the token has no access to this gated or private repository'}${detail ? ` (the Hub says: ${detail})` : ''}`;
  } else if (errorCode === 'RepoNotFound' || (status === 401 && !errorCode)) {
    code = 'repo_not_found';
    message = `${status} repository not found${status === 401 ? ' (or private: the Hub hides private repositories from callers without access)' : ''}${detail ? ` (the Hub says: ${detail})` : ''}`;
  } else if (errorCode === 'RevisionNotFound') {
    code = 'revision_not_found';
    message = `${status} no such revision${detail ? ` (the Hub says: ${detail})` : ''}`;
  } else if (errorCode === 'EntryNotFound' || (status === 404 && file !== undefined)) {
    code = 'entry_not_found';
    message = `${status} the file is not in the repository at this revision${detail ? ` (the Hub says: ${detail})` : ''}`;
  } else if (status === 404) {
    code = 'repo_not_found';
    message = `404 repository not found${detail ? ` (the Hub says: ${detail})` : ''}`;
  } else {
    code = 'http';
    message = `HTTP ${status} from ${res.url || 'the Hub'}${detail ? `: ${detail}` : ''}`;
  }
  return new HubError({ code, repo, ...(file !== undefined ? { file } : {}), message });
}

/** Whether an exception thrown by fetch is the network failing (rather than a bug of ours). */
export function isNetworkError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
  const cause = (e as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : (e as NodeJS.ErrnoException).code;
  return (
    (e instanceof TypeError && /fetch failed|terminated|network/i.test(e.message)) ||
    (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/.test(code))
  );
}

/** The short reason of a network failure, for messages (`ECONNREFUSED`, `other side closed`…). */
export function networkReason(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  return err.cause?.code ?? err.cause?.message ?? err.message;
}

/**
 * A fetch for @huggingface/hub's API calls: adds our user agent and turns every non-2xx answer and
 * network failure into a HubError here, where the response headers (X-Error-Code) are still at hand.
 */
export function hubFetch(repo: string, timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('user-agent', 'diffworld; hf_hub/compatible');
    let res: Response;
    try {
      res = await fetch(input, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
    } catch (e) {
      if (isNetworkError(e)) throw new HubError({ code: 'unreachable', repo, message: `cannot reach ${String(input instanceof Request ? input.url : input)} (${networkReason(e)})` });
      throw e;
    }
    if (!res.ok) throw await errorFromResponse(res, repo);
    return res;
  };
}
