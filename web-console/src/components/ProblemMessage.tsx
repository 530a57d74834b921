import { ApiError, type Problem } from '../api/client'

/** The problem of an error, whatever threw it. */
export function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) return error.problem
  if (error instanceof Error) return { type: 'about:blank', title: 'Something went wrong', status: 0, detail: error.message }
  return { type: 'about:blank', title: 'Something went wrong', status: 0 }
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

/**
 * Errors of an API problem by the top-level field they concern, with the rest of the pointer:
 * `/output_schema/properties/port` gives `output_schema` → "properties/port: …"; `/id` and `id` both
 * give `id`. All errors of a field are kept. With `under`, the fields of that object: `under`
 * "approval" gives `/approval/required` as `required`.
 */
export function problemsByField(error: unknown, under?: string): Record<string, string> {
  const result: Record<string, string[]> = {}
  if (!(error instanceof ApiError)) return {}
  const prefix = under ? `${under}/` : ''
  for (const e of error.problem.errors ?? []) {
    const pointer = (e.pointer ?? '').replace(/^\//, '')
    if (!pointer.startsWith(prefix)) continue
    const [field, ...rest] = pointer.slice(prefix.length).split('/')
    if (!field) continue
    const detail = e.detail ?? 'is not valid'
    ;(result[field] ??= []).push(rest.length ? `${rest.join('/')}: ${detail}` : detail)
  }
  return Object.fromEntries(Object.entries(result).map(([k, v]) => [k, v.join('; ')]))
}

/**
 * The problem of a failed save, unless every one of its errors is shown at a field of the form. A field
 * is a pointer without its slash, and shows what lies below it too: `approval/required`, `output_schema`.
 */
export function FormProblem({ error, fields }: { error: unknown; fields: readonly string[] }) {
  if (!error) return null
  const pointers = error instanceof ApiError ? (error.problem.errors ?? []).map((e) => (e.pointer ?? '').replace(/^\//, '')) : []
  const shown = (pointer: string) => fields.some((f) => pointer === f || pointer.startsWith(`${f}/`))
  if (pointers.length > 0 && pointers.every(shown)) return null
  return <ProblemMessage error={error} />
}
