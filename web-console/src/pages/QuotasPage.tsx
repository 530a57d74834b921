import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { useSession } from '../auth/session'
import { Async } from '../components/Async'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, problemsByField } from '../components/ProblemMessage'

type Quota = Schemas['QuotaItem']

const LABELS: Record<string, string> = {
  projects: 'Projects',
  environments_per_project: 'Environments per project',
  resources_per_manifest: 'Resources per manifest',
  queued_deployments_per_environment: 'Queued deployments per environment',
  concurrent_jobs: 'Concurrent jobs',
  runners: 'Runners',
  tokens_per_user: 'API tokens per user',
}

/** How full a quota is: calm below 80 %, wait from there, bad when used up. */
function usage(q: Quota) {
  const hard = q.hard ?? 0
  const used = q.used ?? 0
  const ratio = hard === 0 ? 1 : used / hard
  return { hard, used, tone: ratio >= 1 ? 'bad' : ratio >= 0.8 ? 'wait' : 'calm' }
}

/** The organization's quotas, what it uses of each, and (for instance administrators) changing them. */
export function QuotasPage() {
  const { org } = useOrg()
  const session = useSession()
  const key = listKeys.quotas(org)
  const query = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/quotas', { params: { path: { org } } })) })
  const [editing, setEditing] = useState(false)
  const client = useQueryClient()
  const admin = !!session.me?.instance_admin
  return (
    <>
      <PageHeader
        title="Quotas"
        subtitle="What this organization may hold or run at once. A quota counted per project, environment, manifest or user shows the most any one of them uses. Instance administrators set them.">
        {admin && (
          <button type="button" className="primary" onClick={() => setEditing(true)}>
            Change quotas
          </button>
        )}
      </PageHeader>
      <Async query={query} what="quotas">
        {(data) => (
          <>
            <table>
              <thead>
                <tr>
                  <th>Quota</th>
                  <th>Counts</th>
                  <th>Used</th>
                  <th>Limit</th>
                </tr>
              </thead>
              <tbody>
                {data.items!.map((q) => {
                  const u = usage(q)
                  return (
                    <tr key={q.name}>
                      <td>
                        {LABELS[q.name!] ?? q.name}{' '}
                        <div className="hint">
                          <code>{q.name}</code>
                        </div>
                      </td>
                      <td>{q.description}</td>
                      <td>
                        <span className={`badge ${u.tone}`}>
                          {u.used} of {u.hard}
                        </span>
                        <meter
                          min={0}
                          max={Math.max(u.hard, 1)}
                          value={Math.min(u.used, Math.max(u.hard, 1))}
                          aria-label={`${LABELS[q.name!] ?? q.name} used`}
                        />
                      </td>
                      <td>
                        {u.hard}
                        {q.default && <span className="muted"> (default)</span>}
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
            {editing && (
              <QuotasDialog
                org={org}
                quotas={data.items!}
                onClose={() => setEditing(false)}
                onSaved={() => client.invalidateQueries({ queryKey: key })}
              />
            )}
          </>
        )}
      </Async>
    </>
  )
}

function QuotasDialog({ org, quotas, onClose, onSaved }: { org: string; quotas: Quota[]; onClose: () => void; onSaved: () => void }) {
  // an empty field goes back to the default
  const [values, setValues] = useState<Record<string, string>>(
    Object.fromEntries(quotas.map((q) => [q.name!, q.default ? '' : String(q.hard)])),
  )
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, number> = {}
      for (const [name, value] of Object.entries(values)) if (value.trim() !== '') body[name] = Number(value)
      return unwrap(api.PUT('/api/v1/orgs/{org}/quotas', { params: { path: { org } }, body }))
    },
    onSuccess: () => {
      onSaved()
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  return (
    <Dialog open title={`Quotas of ${org}`} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        {quotas.map((q) => (
          <Field
            key={q.name}
            label={LABELS[q.name!] ?? q.name!}
            error={errors[q.name!]}
            hint={`Uses ${q.used}. Leave empty for the default${q.default ? ` (${q.hard})` : ''}.`}>
            {(p) => (
              <input
                {...p}
                type="number"
                min={0}
                value={values[q.name!]}
                placeholder={q.default ? String(q.hard) : 'default'}
                onChange={(e) => setValues({ ...values, [q.name!]: e.target.value })}
              />
            )}
          </Field>
        ))}
        <FormProblem error={save.error} fields={quotas.map((q) => q.name!)} />
        <DialogFooter label="Save" busyLabel="Saving…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}
