import { createParser } from 'eventsource-parser'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { ApiError, authorizationHeader, toProblem } from '../api/client'
import { ProblemMessage } from './ProblemMessage'

export interface LogLine {
  node?: string
  job_id?: string
  attempt?: number
  batch?: number
  line?: number
  time?: string
  level?: string
  type?: string
  message: string
}

/**
 * Reads a Server-Sent Events log stream with the caller's credentials (EventSource cannot send an
 * Authorization header). Resolves when the server sends `end` or the stream closes.
 */
export async function followLogs(url: string, signal: AbortSignal, onLine: (line: LogLine) => void): Promise<void> {
  const response = await fetch(url, { headers: { ...(await authorizationHeader()), Accept: 'text/event-stream' }, signal })
  if (!response.ok || !response.body) {
    const body = await response.json().catch(() => undefined)
    throw new ApiError(await toProblem(response, body))
  }
  let ended = false
  const parser = createParser({
    onEvent(event) {
      if (event.event === 'log') onLine(JSON.parse(event.data) as LogLine)
      else if (event.event === 'end') ended = true
    },
  })
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  while (!ended) {
    const { value, done } = await reader.read()
    if (done) break
    parser.feed(value)
  }
  await reader.cancel().catch(() => {})
}

const MAX_LINES = 20_000

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** The resource part of a line's node ({@code type/class/id}): its id. */
function resourceOf(node?: string): string {
  return node ? node.split('/').slice(2).join('/') || node : ''
}

/**
 * Live logs of a deployment, or of one of its resources, following until the deployment ends. With
 * `byResource` every line says whose it is, and the lines can be narrowed to one resource; any view can be
 * narrowed to a level and a text while it keeps following.
 */
export function LogViewer({ url, label, byResource = false }: { url: string; label: string; byResource?: boolean }) {
  const [lines, setLines] = useState<LogLine[]>([])
  const [state, setState] = useState<'following' | 'ended' | 'failed'>('following')
  const [error, setError] = useState<unknown>(null)
  const [resource, setResource] = useState('')
  const [level, setLevel] = useState('')
  const [text, setText] = useState('')
  const box = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const ids = { resource: useId(), level: useId(), text: useId() }

  // another stream starts from nothing
  const [followed, setFollowed] = useState(url)
  if (followed !== url) {
    setFollowed(url)
    setLines([])
    setError(null)
    setState('following')
  }

  useEffect(() => {
    const controller = new AbortController()
    let pending: LogLine[] = []
    let scheduled = false
    const flush = () => {
      scheduled = false
      const batch = pending
      pending = []
      setLines((current) => {
        const next = current.concat(batch)
        return next.length > MAX_LINES ? next.slice(next.length - MAX_LINES) : next
      })
    }
    followLogs(url, controller.signal, (line) => {
      pending.push(line)
      if (!scheduled) {
        scheduled = true
        requestAnimationFrame(flush)
      }
    }).then(
      () => {
        flush()
        setState('ended')
      },
      (e) => {
        if (controller.signal.aborted) return
        setError(e)
        setState('failed')
      },
    )
    return () => controller.abort()
  }, [url])

  const nodes = useMemo(() => [...new Set(lines.map((l) => l.node ?? '').filter(Boolean))].sort(), [lines])
  const needle = text.trim().toLowerCase()
  const filtering = (byResource && resource !== '') || level !== '' || needle !== ''
  const shown = useMemo(
    () =>
      !filtering
        ? lines
        : lines.filter(
            (l) =>
              (!byResource || resource === '' || l.node === resource) &&
              (level === '' || (l.level ?? 'info') === level) &&
              (needle === '' || l.message.toLowerCase().includes(needle)),
          ),
    [lines, filtering, byResource, resource, level, needle],
  )

  useEffect(() => {
    if (stick.current && box.current) box.current.scrollTop = box.current.scrollHeight
  }, [shown])

  return (
    <div>
      <div className="filters log-filters">
        {byResource && (
          <span className="field">
            <label htmlFor={ids.resource}>Resource</label>
            <select id={ids.resource} value={resource} onChange={(e) => setResource(e.target.value)}>
              <option value="">All resources</option>
              {nodes.map((n) => (
                <option key={n} value={n}>
                  {resourceOf(n)}
                </option>
              ))}
            </select>
          </span>
        )}
        <span className="field">
          <label htmlFor={ids.level}>Level</label>
          <select id={ids.level} value={level} onChange={(e) => setLevel(e.target.value)}>
            <option value="">Any level</option>
            <option value="error">error</option>
            <option value="warn">warn</option>
            <option value="info">info</option>
          </select>
        </span>
        <span className="field">
          <label htmlFor={ids.text}>Search the logs</label>
          <input id={ids.text} type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="text in a line" />
        </span>
      </div>
      <div
        className="logs"
        ref={box}
        role="log"
        aria-label={label}
        aria-live="off"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
        }}>
        {lines.length === 0 && state !== 'failed' && (
          <span className="muted">{state === 'following' ? 'Waiting for log lines…' : 'No log lines.'}</span>
        )}
        {lines.length > 0 && shown.length === 0 && <span className="muted">No line matches.</span>}
        {shown.map((line, i) => (
          <div
            key={`${i}-${line.job_id}-${line.batch}-${line.line}`}
            className={`log-line${line.level === 'error' ? ' error' : line.level === 'warn' ? ' warn' : ''}`}>
            {line.time && <span className="time">{new Date(line.time).toLocaleTimeString()}</span>}
            {byResource && (
              <span className="log-resource" title={line.node}>
                {resourceOf(line.node)}
              </span>
            )}
            <span className="message">{line.message}</span>
          </div>
        ))}
      </div>
      <p className="muted small" aria-live="polite">
        {state === 'following' ? (
          <>
            <span className="spinner" aria-hidden="true" /> Following live
          </>
        ) : state === 'ended' ? (
          `${filtering ? `${shown.length} of ` : ''}${count(lines.length, 'line')}`
        ) : null}
        {state === 'following' && filtering ? ` · ${shown.length} of ${count(lines.length, 'line')} shown` : null}
      </p>
      {error != null && <ProblemMessage error={error} />}
    </div>
  )
}
