import { ApiError, type Problem } from '../api/client'

/** The problem of an error, whatever threw it. */
export function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) return error.problem
  if (error instanceof Error) return { type: 'about:blank', title: 'Something went wrong', status: 0, detail: error.message }
  return { type: 'about:blank', title: 'Something went wrong', status: 0 }
}

/** Errors of a problem by the form field they concern: `/id` and `id` both give `id`. */
export function fieldErrors(error: unknown): Record<string, string> {
  const result: Record<string, string> = {}
  if (!(error instanceof ApiError)) return result
  for (const e of error.problem.errors ?? []) {
    const key = (e.pointer ?? '').replace(/^\//, '').split('/')[0]
    if (key && !result[key]) result[key] = e.detail ?? 'is not valid'
  }
  return result
}

const HINTS: Record<number, string> = {
  0: '',
  401: 'Your session may have ended; sign in again.',
  403: 'Your role in this organization does not allow this. An owner can change your role.',
  404: 'It may have been deleted, or you are not a member of the organization it belongs to.',
  409: 'Someone else changed it in the meantime, or something still uses it. Reload and try again.',
  429: 'Too many attempts; wait a minute.',
}

const SERVER_HINT = 'Nothing you sent was wrong. Try again in a moment; if it happens again, give your administrator the request id below.'

/** An API problem in words: what happened, why, and each field that was wrong. */
export function ProblemMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const problem = problemOf(error)
  const hint = HINTS[problem.status] ?? (problem.status >= 500 ? SERVER_HINT : undefined)
  return (
    <div className="problem" role="alert">
      <strong>{problem.title}</strong>
      {problem.detail && <p>{problem.detail}</p>}
      {problem.errors && problem.errors.length > 0 && (
        <ul>
          {problem.errors.map((e, i) => (
            <li key={i}>
              {(e.path ?? e.pointer) && <code>{e.path ?? e.pointer}</code>} {e.detail}
              {e.line ? <span className="muted"> (line {e.line})</span> : null}
            </li>
          ))}
        </ul>
      )}
      {hint && <p className="muted">{hint}</p>}
      {problem.request_id && <p className="muted small">Request id {problem.request_id}</p>}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  )
}
