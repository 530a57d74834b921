import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Role, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { ROLE_LABELS } from '../auth/roles'
import { useSession } from '../auth/session'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { FormProblem, problemsByField } from '../components/ProblemMessage'
import { Changes } from '../components/Status'
import { Time } from '../components/Time'
import { nodeKey } from './EnvironmentPage'

type Deployment = Schemas['DeploymentView']
type Gate = Schemas['ApprovalGate']
type Decision = NonNullable<Schemas['ApprovalRequest']['decision']>

/** The states of an approval gate, in words. */
const GATE_STATES: Record<string, { label: string; tone: string; note: string }> = {
  planning: { label: 'planning', tone: 'busy', note: 'Every resource is planned first; the plan can be approved once it is complete.' },
  awaiting: { label: 'awaiting approval', tone: 'wait', note: 'Nothing is applied until the plan below has enough approvals.' },
  approved: { label: 'approved', tone: 'ok', note: 'The plan had enough approvals; what it showed is applied.' },
  'not-needed': { label: 'not needed', tone: 'calm', note: 'The plan changed nothing, so there was nothing to approve.' },
  rejected: { label: 'rejected', tone: 'bad', note: 'Rejected: nothing was applied.' },
  expired: { label: 'expired', tone: 'calm', note: 'Nobody decided in time: nothing was applied.' },
  cancelled: { label: 'cancelled', tone: 'calm', note: 'Cancelled before it was approved: nothing was applied.' },
  'plan-failed': {
    label: 'plan failed',
    tone: 'bad',
    note: 'A resource failed to plan, so there was nothing to approve and nothing was applied.',
  },
  stale: {
    label: 'plan stale',
    tone: 'bad',
    note: 'What the plan was made of changed after it was made: nothing was applied. Start a new deployment to plan again.',
  },
}

function roleLabel(role: string): string {
  return ROLE_LABELS[role as Role] ?? role
}

/**
 * What a resource's plan would do: its additions, changes and destructions, or that they are known only once
 * a resource it depends on applies.
 */
export function PlanSummary({ summary, planned }: { summary: unknown; planned?: boolean }) {
  if (!summary || typeof summary !== 'object') return <span className="muted">—</span>
  const s = summary as { known_after_apply?: boolean; reason?: string } & Schemas['PlanSummary']
  if (s.known_after_apply) {
    return <span>known after apply{s.reason && <span className="muted small"> ({s.reason})</span>}</span>
  }
  return <Changes changes={s} planned={planned} />
}

/** The plan a deployment waits with: each planned resource with what it would do, and the totals. */
function Plan({ deployment: d }: { deployment: Deployment }) {
  const planned = (d.nodes ?? []).filter((n) => n.status === 'planned')
  const unchanged = (d.nodes ?? []).filter((n) => n.status === 'unchanged').length
  return (
    <>
      <h3>The plan</h3>
      <table aria-label="Planned changes">
        <thead>
          <tr>
            <th>Resource</th>
            <th>Action</th>
            <th>Changes</th>
          </tr>
        </thead>
        <tbody>
          {planned.map((n) => (
            <tr key={nodeKey(n)}>
              <td>
                <code>{n.id}</code>
                <span className="muted small"> {n.type}</span>
              </td>
              <td>{n.action ?? n.operation}</td>
              <td>
                <PlanSummary summary={n.plan_summary} planned />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={2}>
              <strong>In total</strong>
            </td>
            <td>
              <Changes changes={d.changes} planned />
            </td>
          </tr>
        </tfoot>
      </table>
      {unchanged > 0 && (
        <p className="muted small">
          {unchanged === 1 ? '1 more resource stays as it is.' : `${unchanged} more resources stay as they are.`}
        </p>
      )}
    </>
  )
}

function DecisionBadge({ decision }: { decision?: string }) {
  return decision === 'approve' ? <span className="badge ok">approved</span> : <span className="badge bad">rejected</span>
}

/** Approves or rejects the plan a deployment waits with; the decision names the plan's fingerprint. */
function DecisionDialog({
  decision,
  where,
  deployment: d,
  given,
  onClose,
}: {
  decision: Decision
  where: { org: string; project: string; env: string; id: string }
  deployment: Deployment
  given: number
  onClose: () => void
}) {
  const client = useQueryClient()
  const [comment, setComment] = useState('')
  const gate = d.approval!
  // the plan on screen when the dialog opened: the server refuses the decision if the deployment waits with another
  const [fingerprint] = useState(gate.fingerprint)
  const decide = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments/{id}/approvals', {
          params: { path: where },
          body: { decision, fingerprint, ...(comment.trim() ? { comment } : {}) },
        }),
      ),
    onSuccess: () => onClose(),
    // a refused decision may have ended the deployment as well: a stale plan fails it
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: listKeys.deployments(where.org, where.project, where.env) }),
        client.invalidateQueries({ queryKey: listKeys.approvals(where.org) }),
      ]),
  })
  const errors = problemsByField(decide.error)
  const approve = decision === 'approve'
  const missing = (gate.required ?? 1) - given
  return (
    <Dialog open title={approve ? 'Approve the plan' : 'Reject the plan'} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          decide.mutate()
        }}>
        <p>
          Plan <code className="wrap-anywhere">{fingerprint}</code>: <Changes changes={d.changes} planned />.{' '}
          {approve
            ? missing <= 1
              ? 'With your approval it applies.'
              : `It needs ${missing - 1} more after yours.`
            : 'The deployment ends without applying anything.'}
        </p>
        <Field
          label="Comment"
          error={errors.comment}
          hint={approve ? 'Optional; shown with your decision.' : 'Say why, so that whoever started it knows what to change.'}>
          {(p) => <textarea {...p} value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} autoFocus />}
        </Field>
        <FormProblem error={decide.error} fields={['comment']} />
        <DialogFooter
          label={approve ? 'Approve' : 'Reject'}
          busyLabel="Sending…"
          busy={decide.isPending}
          danger={!approve}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  )
}

/**
 * A gated deployment's approval: its state, the approvals given of those required, who may give them, until
 * when, and the decisions. While it waits: the plan, and Approve and Reject for those who may decide.
 */
export function ApprovalCard({
  where,
  deployment: d,
}: {
  where: { org: string; project: string; env: string; id: string }
  deployment: Deployment
}) {
  const { role } = useOrg()
  const { me } = useSession()
  const [deciding, setDeciding] = useState<Decision | null>(null)
  const gate: Gate = d.approval ?? {}
  const state = GATE_STATES[gate.state ?? ''] ?? { label: gate.state ?? 'unknown', tone: 'calm', note: '' }
  const decisions = gate.decisions ?? []
  // as the server counts: approvals of the plan the deployment waits with
  const given = decisions.filter((x) => x.decision === 'approve' && x.fingerprint === gate.fingerprint).length
  const waiting = d.status === 'awaiting_approval' && gate.state === 'awaiting'
  const mine = decisions.find((x) => x.user === me?.name)
  const mayDecide = !!role && (gate.approvers ?? []).includes(role)
  const ownDeployment = d.created_by === me?.name && !gate.allow_self_approval
  return (
    <>
      <section className="card" aria-labelledby="approval-heading">
        <div className="section-header">
          <h2 id="approval-heading">Approval</h2>
          {waiting && mayDecide && !mine && !ownDeployment && (
            <div className="actions">
              <button type="button" className="primary" onClick={() => setDeciding('approve')}>
                Approve
              </button>
              <button type="button" className="danger" onClick={() => setDeciding('reject')}>
                Reject
              </button>
            </div>
          )}
        </div>
        <p>
          <span className={`badge ${state.tone}`}>{state.label}</span> <span className="muted">{state.note}</span>
        </p>
        <dl className="kv">
          <dt>Approvals</dt>
          <dd>
            {given} of {gate.required ?? 1} given
          </dd>
          <dt>Who may approve</dt>
          <dd>
            {(gate.approvers ?? []).map(roleLabel).join(', ') || '—'}
            {gate.allow_self_approval ? '' : '; not whoever started it'}
          </dd>
          <dt>{gate.state === 'expired' ? 'Expired' : 'Expires'}</dt>
          <dd>
            <Time value={gate.expires_at} />
          </dd>
          {gate.fingerprint && (
            <>
              <dt>Plan</dt>
              <dd>
                <code>{gate.fingerprint}</code>
              </dd>
            </>
          )}
        </dl>
        {waiting && mine && (
          <p>
            You {mine.decision === 'approve' ? 'approved' : 'rejected'} this plan <Time value={mine.created_at} />.
          </p>
        )}
        {waiting && !mine && mayDecide && ownDeployment && (
          <p className="muted">You started this deployment: another member must approve or reject it.</p>
        )}
        {waiting && !mayDecide && <p className="muted">Your role may not decide on it.</p>}
        {d.status === 'awaiting_approval' && <Plan deployment={d} />}
        <h3>Decisions</h3>
        {decisions.length === 0 ? (
          <p className="muted">No decisions yet.</p>
        ) : (
          <table aria-label="Decisions">
            <thead>
              <tr>
                <th>Member</th>
                <th>Role</th>
                <th>Decision</th>
                <th>Comment</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {decisions.map((x) => (
                <tr key={x.id}>
                  <td>{x.user}</td>
                  <td>{x.role ? roleLabel(x.role) : '—'}</td>
                  <td>
                    <DecisionBadge decision={x.decision} />
                    {x.fingerprint && x.fingerprint !== gate.fingerprint && <div className="muted small">of another plan</div>}
                  </td>
                  <td className="wrap-anywhere">{x.comment ?? <span className="muted">—</span>}</td>
                  <td className="nowrap">
                    <Time value={x.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {deciding && <DecisionDialog decision={deciding} where={where} deployment={d} given={given} onClose={() => setDeciding(null)} />}
    </>
  )
}
