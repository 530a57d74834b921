import type { Schemas } from '../api/client'

const TONES: Record<string, string> = {
  succeeded: 'ok',
  active: 'ok',
  idle: 'ok',
  unchanged: 'calm',
  added: 'ok',
  running: 'busy',
  busy: 'busy',
  queued: 'wait',
  pending: 'wait',
  deleting: 'busy',
  module_changed: 'busy',
  inputs_changed: 'busy',
  definition_changed: 'busy',
  awaiting_approval: 'wait',
  planned: 'wait',
  failed: 'bad',
  delete_failed: 'bad',
  removed: 'bad',
  offline: 'bad',
  skipped: 'calm',
  cancelled: 'calm',
  kept: 'calm',
}

export function toneOf(status: string | undefined): string {
  return (status && TONES[status]) || 'calm'
}

/** A status as a coloured label; the colour always comes with the word. */
export function StatusBadge({ status }: { status: string | undefined }) {
  return <span className={`badge ${toneOf(status)}`}>{(status ?? 'unknown').replace(/_/g, ' ')}</span>
}

/** The share of done nodes of a deployment. */
export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total === 0 ? 100 : Math.round((done / total) * 100)
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
      aria-valuetext={`${done} of ${total}`}>
      <div className="progress-fill" style={{ width: `${percent}%` }} />
      <span className="progress-text">
        {done} of {total}
      </span>
    </div>
  )
}

/** What OpenTofu added, changed and destroyed, as a plan prints it; of a plan that waits, what it would. */
export function Changes({ changes, planned }: { changes?: Schemas['DeploymentChanges']; planned?: boolean }) {
  if (!changes) return <span className="muted">—</span>
  const { add = 0, change = 0, destroy = 0 } = changes
  const label = planned
    ? `${add} to add, ${change} to change, ${destroy} to destroy`
    : `${add} added, ${change} changed, ${destroy} destroyed`
  return (
    <span className="changes" aria-label={label}>
      <span className="add">+{add}</span> <span className="change">~{change}</span> <span className="destroy">−{destroy}</span>
    </span>
  )
}
