import { Managed } from '../components/Managed'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Role, type Schemas } from '../api/client'
import { listKeys, useEnvTypes, useResourceTypes } from '../api/lists'
import { useOrg } from '../auth/org'
import { ROLE_LABELS, ROLES } from '../auth/roles'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, problemsByField } from '../components/ProblemMessage'
import { Time } from '../components/Time'

type EnvType = Schemas['EnvTypeView']
type ApprovalPolicy = Schemas['ApprovalPolicy']
type CheckSchedule = Schemas['CheckSchedule']

/** Environment types (development, staging, production…) that rules can select on, with their approval and drift-check settings. */
export function EnvTypesPage() {
  const { org, can } = useOrg()
  const key = listKeys.envTypes(org)
  const query = useEnvTypes(org)
  const [editing, setEditing] = useState<EnvType | 'new' | null>(null)
  const client = useQueryClient()
  const editable = can('platform-engineer')
  return (
    <>
      <PageHeader
        title="Environment types"
        subtitle="Every environment has a type; module and runner rules can choose by it, and it says who approves deployments and when environments are checked for drift.">
        {editable && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            New environment type
          </button>
        )}
      </PageHeader>
      <Async
        query={query}
        what="environment types"
        isEmpty={(d) => !d.items?.length}
        empty={<>No environment types yet.{editable ? ' Create one such as “development” or “production”.' : ''}</>}>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Id</th>
                <th>Description</th>
                <th>Deployments</th>
                <th>Drift checks</th>
                <th>Created</th>
                {editable && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((t) => (
                <tr key={t.id}>
                  <td>
                    <code>{t.id}</code> <Managed item={t} />
                  </td>
                  <td>{t.description || <span className="muted">—</span>}</td>
                  <td>
                    {t.approval?.deployments ? (
                      `wait for ${t.approval.required ?? 1} approval${(t.approval.required ?? 1) === 1 ? '' : 's'} by ${(t.approval.approvers ?? []).map((r) => ROLE_LABELS[r]).join(', ')}`
                    ) : (
                      <span className="muted">apply without approval</span>
                    )}
                  </td>
                  <td>
                    {t.checks?.interval_minutes ? (
                      `every ${t.checks.interval_minutes} minutes${t.checks.window ? `, ${t.checks.window} UTC` : ''}${t.checks.refresh_only ? ', refresh only' : ''}`
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>
                    <Time value={t.created_at} />
                  </td>
                  {editable && (
                    <td className="row-actions">
                      <button type="button" onClick={() => setEditing(t)}>
                        Edit
                      </button>
                      <ConfirmButton
                        label="Delete"
                        ariaLabel={`Delete environment type “${t.id}”`}
                        title={`Delete environment type “${t.id}”?`}
                        onConfirm={async () => {
                          await unwrap(
                            api.DELETE('/api/v1/orgs/{org}/env-types/{env_type}', { params: { path: { org, env_type: t.id! } } }),
                          )
                          await client.invalidateQueries({ queryKey: key })
                        }}>
                        Environments of this type and rules that name it keep it from being deleted.
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {editing && (
        <EnvTypeDialog
          org={org}
          envType={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => client.invalidateQueries({ queryKey: key })}
        />
      )}
    </>
  )
}

type Policy = Schemas['ReconcilePolicy']

const POLICIES: { policy: Policy; label: string }[] = [
  { policy: 'observe', label: 'observe: open an issue' },
  { policy: 'approve', label: 'approve: a reconcile deployment that waits for approval' },
  { policy: 'auto', label: 'auto: a reconcile deployment that runs at once' },
]

/** What applies where a type has no approval settings (the server's defaults). */
const DEFAULT_APPROVERS: Role[] = ['platform-engineer', 'owner']
const DEFAULT_EXPIRY_HOURS = 24

interface ReconcileRow {
  rowId: number
  type: string
  policy: Policy
}

let lastRowId = 0
const reconcileRow = (type = '', policy: Policy = 'approve'): ReconcileRow => ({ rowId: ++lastRowId, type, policy })

/** The approval settings, or undefined where they say no more than the defaults (no settings). */
function approvalOf(a: {
  deployments: boolean
  required: string
  approvers: Role[]
  self: boolean
  expiry: string
}): ApprovalPolicy | undefined {
  const required = a.required.trim() === '' ? undefined : Number(a.required)
  const expiry = a.expiry.trim() === '' ? undefined : Number(a.expiry)
  const defaults =
    !a.deployments &&
    (required ?? 1) === 1 &&
    !a.self &&
    (expiry ?? DEFAULT_EXPIRY_HOURS) === DEFAULT_EXPIRY_HOURS &&
    a.approvers.length === DEFAULT_APPROVERS.length &&
    DEFAULT_APPROVERS.every((r) => a.approvers.includes(r))
  if (defaults) return undefined
  return {
    deployments: a.deployments,
    required,
    approvers: ROLES.filter((r) => a.approvers.includes(r)),
    allow_self_approval: a.self,
    expires_after_hours: expiry,
  }
}

/** The drift-check schedule, or undefined where it checks nothing (no schedule). */
function checksOf(c: { interval: string; window: string; refreshOnly: boolean }): CheckSchedule | undefined {
  const interval = c.interval.trim() === '' ? 0 : Number(c.interval)
  if (interval === 0 && !c.window.trim() && !c.refreshOnly) return undefined
  return { interval_minutes: interval, ...(c.window.trim() ? { window: c.window.trim() } : {}), refresh_only: c.refreshOnly }
}

/**
 * A setting of an update: what the form says, `{}` where it says nothing but the type had one (removes it),
 * else absent (leaves it). A new type just leaves out what it does not have.
 */
function inUpdate<T extends object>(value: T | undefined, had: boolean): T | Record<string, never> | undefined {
  return value ?? (had ? {} : undefined)
}

function EnvTypeDialog({
  org,
  envType,
  onClose,
  onSaved,
}: {
  org: string
  envType: EnvType | null
  onClose: () => void
  onSaved: () => void
}) {
  const [id, setId] = useState(envType?.id ?? '')
  const [description, setDescription] = useState(envType?.description ?? '')
  const stored = envType?.approval
  const [deployments, setDeployments] = useState(stored?.deployments ?? false)
  const [required, setRequired] = useState(String(stored?.required ?? 1))
  const [approvers, setApprovers] = useState<Role[]>(stored?.approvers ?? DEFAULT_APPROVERS)
  const [self, setSelf] = useState(stored?.allow_self_approval ?? false)
  const [expiry, setExpiry] = useState(String(stored?.expires_after_hours ?? DEFAULT_EXPIRY_HOURS))
  const [checkInterval, setCheckInterval] = useState(envType?.checks?.interval_minutes ? String(envType.checks.interval_minutes) : '')
  const [checkWindow, setCheckWindow] = useState(envType?.checks?.window ?? '')
  const [refreshOnly, setRefreshOnly] = useState(envType?.checks?.refresh_only ?? false)
  const [reconcile, setReconcile] = useState<ReconcileRow[]>(
    Object.entries(envType?.reconcile ?? {}).map(([type, policy]) => reconcileRow(type, policy)),
  )
  const resourceTypes = useResourceTypes(org)
  const save = useMutation({
    mutationFn: () => {
      const approval = approvalOf({ deployments, required, approvers, self, expiry })
      const checks = checksOf({ interval: checkInterval, window: checkWindow, refreshOnly })
      const overrides =
        reconcile.filter((r) => r.type).length > 0
          ? Object.fromEntries(reconcile.filter((r) => r.type).map((r) => [r.type, r.policy]))
          : undefined
      return envType
        ? unwrap(
            api.PUT('/api/v1/orgs/{org}/env-types/{env_type}', {
              params: { path: { org, env_type: envType.id! } },
              body: {
                description,
                version: envType.version,
                approval: inUpdate(approval, !!envType.approval),
                checks: inUpdate(checks, !!envType.checks),
                reconcile: inUpdate(overrides, Object.keys(envType.reconcile ?? {}).length > 0),
              },
            }),
          )
        : unwrap(
            api.POST('/api/v1/orgs/{org}/env-types', {
              params: { path: { org } },
              body: { id, description, approval, checks, reconcile: overrides },
            }),
          )
    },
    onSuccess: () => {
      onSaved()
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  const approvalErrors = problemsByField(save.error, 'approval')
  const checkErrors = problemsByField(save.error, 'checks')
  const typeIds = (resourceTypes.data?.items ?? []).map((t) => t.id!)
  const toggle = (role: Role) => setApprovers((all) => (all.includes(role) ? all.filter((r) => r !== role) : [...all, role]))
  const updateRow = (rowId: number, row: Partial<ReconcileRow>) =>
    setReconcile((rows) => rows.map((r) => (r.rowId === rowId ? { ...r, ...row } : r)))
  return (
    <Dialog open wide title={envType ? `Edit “${envType.id}”` : 'New environment type'} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <div className="grid-2">
          <Field label="Id" hint="Lowercase letters, digits and dashes, e.g. production." error={errors.id}>
            {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} disabled={!!envType} required autoFocus />}
          </Field>
          <Field label="Description" error={errors.description}>
            {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
          </Field>
        </div>
        <fieldset className="kv-rows">
          <legend>Approvals</legend>
          <label className="check">
            <input type="checkbox" checked={deployments} onChange={(e) => setDeployments(e.target.checked)} />
            Deployments wait for approval: each one that changes something is planned first, and applies once approved
          </label>
          <div className="grid-2">
            <Field label="Approvals required" hint="1 to 10." error={approvalErrors.required}>
              {(p) => <input {...p} type="number" min={1} max={10} value={required} onChange={(e) => setRequired(e.target.value)} />}
            </Field>
            <Field
              label="Plans wait at most (hours)"
              hint="1 to 720; then the deployment is cancelled."
              error={approvalErrors.expires_after_hours}>
              {(p) => <input {...p} type="number" min={1} max={720} value={expiry} onChange={(e) => setExpiry(e.target.value)} />}
            </Field>
          </div>
          <fieldset className={`choices${approvalErrors.approvers ? ' invalid' : ''}`}>
            <legend>Who may approve</legend>
            {ROLES.map((r) => (
              <label key={r} className="check">
                <input type="checkbox" checked={approvers.includes(r)} onChange={() => toggle(r)} /> {ROLE_LABELS[r]}
              </label>
            ))}
            {approvalErrors.approvers && <div className="field-error">{approvalErrors.approvers}</div>}
          </fieldset>
          <label className="check">
            <input type="checkbox" checked={self} onChange={(e) => setSelf(e.target.checked)} />
            Whoever started a deployment may approve it too
          </label>
          <div className="hint">
            Reconcile deployments that wait for approval follow these settings too. Left at one approval by a platform engineer or owner
            within 24 hours, with deployments not waiting, the type has no approval settings of its own.
          </div>
        </fieldset>
        <fieldset className="kv-rows">
          <legend>Drift checks</legend>
          <div className="grid-3">
            <Field
              label="Check every (minutes)"
              hint="Empty or 0: no scheduled checks; otherwise 10 to 10080."
              error={checkErrors.interval_minutes}>
              {(p) => (
                <input {...p} type="number" min={0} max={10080} value={checkInterval} onChange={(e) => setCheckInterval(e.target.value)} />
              )}
            </Field>
            <Field label="Window (UTC)" hint="HH:MM-HH:MM, e.g. 22:00-06:00; empty: any time." error={checkErrors.window}>
              {(p) => <input {...p} value={checkWindow} onChange={(e) => setCheckWindow(e.target.value)} placeholder="22:00-06:00" />}
            </Field>
          </div>
          <label className="check">
            <input type="checkbox" checked={refreshOnly} onChange={(e) => setRefreshOnly(e.target.checked)} />
            Refresh only: look for changes made outside Polystack, not for what the manifest would change
          </label>
          <div className="hint">Environments of this type are checked this way unless they have a schedule of their own.</div>
        </fieldset>
        <fieldset className={`kv-rows${errors.reconcile ? ' invalid' : ''}`}>
          <legend>What happens to drift</legend>
          {reconcile.length === 0 && <p className="muted small">Each resource type’s own policy.</p>}
          {reconcile.map((row, i) => (
            <div className="kv-row" key={row.rowId}>
              <div className="kv-key">
                <label className="sr-only" htmlFor={`reconcile-${row.rowId}-type`}>{`Resource type ${i + 1}`}</label>
                <select
                  id={`reconcile-${row.rowId}-type`}
                  value={row.type}
                  onChange={(e) => updateRow(row.rowId, { type: e.target.value })}>
                  <option value="">Choose a resource type</option>
                  {[...new Set([...typeIds, ...(row.type ? [row.type] : [])])].sort().map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </div>
              <div className="kv-value">
                <label className="sr-only" htmlFor={`reconcile-${row.rowId}-policy`}>{`Policy ${i + 1}`}</label>
                <select
                  id={`reconcile-${row.rowId}-policy`}
                  value={row.policy}
                  onChange={(e) => updateRow(row.rowId, { policy: e.target.value as Policy })}>
                  {POLICIES.map((p) => (
                    <option key={p.policy} value={p.policy}>
                      {p.label}
                    </option>
                  ))}
                </select>
              </div>
              <button
                type="button"
                aria-label={`Remove ${row.type || `resource type ${i + 1}`}`}
                onClick={() => setReconcile((rows) => rows.filter((r) => r.rowId !== row.rowId))}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setReconcile((rows) => [...rows, reconcileRow()])}>
            Add a resource type
          </button>
          {errors.reconcile ? (
            <div className="field-error">{errors.reconcile}</div>
          ) : (
            <div className="hint">
              Overrides the resource types’ policies in environments of this type. Fixes that delete or replace something always wait for
              approval.
            </div>
          )}
        </fieldset>
        <FormProblem error={save.error} fields={FIELDS} />
        <DialogFooter label="Save" busyLabel="Saving…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

/** The fields the form shows the API's errors at. */
const FIELDS = [
  'id',
  'description',
  'approval/required',
  'approval/approvers',
  'approval/expires_after_hours',
  'checks/interval_minutes',
  'checks/window',
  'reconcile',
]
