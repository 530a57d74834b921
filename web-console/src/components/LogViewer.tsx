import { createParser } from 'eventsource-parser'
import { useEffect, useRef, useState } from 'react'
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

/** Live logs of a deployment, or of one of its resources, following until the deployment ends. */
export function LogViewer({ url, label }: { url: string; label: string }) {
  const [lines, setLines] = useState<LogLine[]>([])
  const [state, setState] = useState<'following' | 'ended' | 'failed'>('following')
  const [error, setError] = useState<unknown>(null)
  const box = useRef<HTMLDivElement>(null)
  const stick = useRef(true)

  useEffect(() => {
    const controller = new AbortController()
    setLines([])
    setError(null)
    setState('following')
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
    }).then(() => {
      flush()
      setState('ended')
    }, (e) => {
      if (controller.signal.aborted) return
      setError(e)
      setState('failed')
    })
    return () => controller.abort()
  }, [url])

  useEffect(() => {
    if (stick.current && box.current) box.current.scrollTop = box.current.scrollHeight
  }, [lines])

  return (
    <div>
      <div className="logs" ref={box} role="log" aria-label={label} aria-live="off" tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
        }}>
        {lines.length === 0 && state !== 'failed' && (
          <span className="muted">{state === 'following' ? 'Waiting for log lines…' : 'No log lines.'}</span>
        )}
        {lines.map((line, i) => (
          <div key={`${i}-${line.job_id}-${line.batch}-${line.line}`} className={line.level === 'error' ? 'error' : line.level === 'warn' ? 'warn' : undefined}>
            {line.time && <span className="time">{new Date(line.time).toLocaleTimeString()}</span>}
            {line.message}
          </div>
        ))}
      </div>
      <p className="muted small" aria-live="polite">
        {state === 'following' ? <><span className="spinner" aria-hidden="true" /> Following live</> : state === 'ended' ? `${lines.length} lines` : null}
      </p>
      {error != null && <ProblemMessage error={error} />}
    </div>
  )
}
