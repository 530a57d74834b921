import { Managed } from '../components/Managed'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys, useRunners } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton, CopyButton } from '../components/Buttons'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, problemsByField } from '../components/ProblemMessage'
import { StatusBadge } from '../components/Status'
import { Time } from '../components/Time'
import { KeyValueRows, mapOf, rowsOf, rowsProblem, type KeyValueRow } from '../components/forms'

type Runner = Schemas['RunnerView']
type RunnerRequest = Schemas['RunnerRequest']

const FIELDS = ['id', 'description', 'public_key', 'max_concurrent_jobs', 'labels']
const KEYGEN = 'java -jar runner-agent.jar keygen --key-file=runner.key'

/** The command that starts a runner's agent against this server. */
function startCommand(org: string, runner: string): string {
  return `java -jar runner-agent.jar --url=${window.location.origin} --org=${org} --runner=${runner} --key-file=runner.key`
}

/** Runners: agents in your own networks that claim jobs and run OpenTofu. */
export function RunnersPage() {
  const { org, can } = useOrg()
  const query = useRunners(org, 30_000)
  const [editing, setEditing] = useState<Runner | 'new' | null>(null)
  const client = useQueryClient()
  const editable = can('platform-engineer')
  const saved = () => client.invalidateQueries({ queryKey: listKeys.runners(org) })
  return (
    <>
      <PageHeader
        title="Runners"
        subtitle="Agents inside your networks that pull jobs and run OpenTofu. A runner is offline when it has not called in for a while, busy while it runs jobs.">
        {editable && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            Register a runner
          </button>
        )}
      </PageHeader>
      <Async
        query={query}
        what="runners"
        isEmpty={(d) => !d.items?.length}
        empty={
          <>
            No runners yet: nothing can be deployed until one is registered and running.
            {editable ? ' Register one to get the commands that set up its agent.' : ' A platform engineer registers them.'}
          </>
        }>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Runner</th>
                <th>Status</th>
                <th>Last seen</th>
                <th>Jobs now</th>
                <th>Labels</th>
                {editable && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((r) => (
                <tr key={r.id}>
                  <td>
                    <code>{r.id}</code> <Managed item={r} />
                    {r.description && <div className="muted small">{r.description}</div>}
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>
                    <Time value={r.last_seen_at} />
                  </td>
                  <td>
                    <CurrentJobs org={org} runner={r} />
                  </td>
                  <td>
                    <Labels labels={r.labels} />
                  </td>
                  {editable && (
                    <td>
                      <div className="row-actions">
                        <button type="button" aria-label={`Edit ${r.id}`} onClick={() => setEditing(r)}>
                          Edit
                        </button>
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete runner “${r.id}”`}
                          title={`Delete runner “${r.id}”?`}
                          onConfirm={async () => {
                            await unwrap(api.DELETE('/api/v1/orgs/{org}/runners/{runner}', { params: { path: { org, runner: r.id! } } }))
                            await saved()
                          }}>
                          Its agent can no longer claim jobs. Runner rules that name it keep it from being deleted.
                        </ConfirmButton>
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {editing === 'new' && <RegisterRunnerDialog org={org} onClose={() => setEditing(null)} onSaved={saved} />}
      {editing && editing !== 'new' && <EditRunnerDialog org={org} runner={editing} onClose={() => setEditing(null)} onSaved={saved} />}
    </>
  )
}

function Labels({ labels }: { labels?: Record<string, string> }) {
  const entries = Object.entries(labels ?? {})
  if (entries.length === 0) return <span className="muted">—</span>
  return (
    <ul className="plain-list inline">
      {entries.map(([k, v]) => (
        <li key={k}>
          <code className="badge calm">
            {k}={v}
          </code>
        </li>
      ))}
    </ul>
  )
}

/** A shell command with a button that copies it. */
function Command({ text, copyLabel }: { text: string; copyLabel: string }) {
  return (
    <div className="command">
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={copyLabel} />
    </div>
  )
}

interface RunnerDraft {
  id: string
  description: string
  publicKey: string
  maxJobs: string
  labels: KeyValueRow[]
}

function draftOf(runner: Runner | null): RunnerDraft {
  return {
    id: runner?.id ?? '',
    description: runner?.description ?? '',
    publicKey: runner?.public_key ?? '',
    maxJobs: String(runner?.max_concurrent_jobs ?? 1),
    labels: rowsOf(runner?.labels),
  }
}

function requestOf(draft: RunnerDraft): RunnerRequest {
  return {
    description: draft.description,
    public_key: draft.publicKey.trim(),
    max_concurrent_jobs: Number(draft.maxJobs),
    labels: mapOf(draft.labels),
  }
}

/** The fields of a runner, shared by registering and editing. */
function RunnerFields({
  draft,
  onChange,
  errors,
  isNew,
}: {
  draft: RunnerDraft
  onChange: (change: Partial<RunnerDraft>) => void
  errors: Record<string, string>
  isNew: boolean
}) {
  return (
    <>
      <div className="grid-2">
        <Field label="Id" hint="Lowercase letters, digits and dashes, e.g. eu-agent." error={errors.id}>
          {(p) => (
            <input
              {...p}
              value={draft.id}
              onChange={(e) => onChange({ id: e.target.value })}
              disabled={!isNew}
              required
              autoFocus={isNew}
            />
          )}
        </Field>
        <Field label="Max concurrent jobs" hint="Jobs it may run at once (1–1000)." error={errors.max_concurrent_jobs}>
          {(p) => (
            <input
              {...p}
              type="number"
              min={1}
              max={1000}
              value={draft.maxJobs}
              onChange={(e) => onChange({ maxJobs: e.target.value })}
              required
            />
          )}
        </Field>
      </div>
      <Field label="Description" error={errors.description}>
        {(p) => <input {...p} value={draft.description} onChange={(e) => onChange({ description: e.target.value })} autoFocus={!isNew} />}
      </Field>
      <Field
        label="Public key"
        error={errors.public_key}
        hint={
          isNew
            ? 'The Ed25519 public key keygen printed, from -----BEGIN PUBLIC KEY----- to -----END PUBLIC KEY-----.'
            : 'To rotate the key: run keygen again on the runner’s machine, paste the new public key here, save, and restart the agent with the new key file.'
        }>
        {(p) => (
          <textarea
            {...p}
            value={draft.publicKey}
            onChange={(e) => onChange({ publicKey: e.target.value })}
            required
            spellCheck={false}
            placeholder={'-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----'}
          />
        )}
      </Field>
      <KeyValueRows
        legend="Labels"
        rows={draft.labels}
        onChange={(labels) => onChange({ labels })}
        keyLabel="Label key"
        valueLabel="Label value"
        addLabel="Add label"
        empty="No labels."
        hint="Free key=value pairs that describe the runner, e.g. region=eu."
        error={errors.labels}
      />
    </>
  )
}

function RegisterRunnerDialog({ org, onClose, onSaved }: { org: string; onClose: () => void; onSaved: () => void }) {
  const [draft, setDraft] = useState(() => draftOf(null))
  const [labelsProblem, setLabelsProblem] = useState<string>()
  const [registered, setRegistered] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (body: RunnerRequest) => unwrap(api.POST('/api/v1/orgs/{org}/runners', { params: { path: { org } }, body })),
    onSuccess: (runner) => {
      onSaved()
      setRegistered(runner.id ?? draft.id)
    },
  })
  const errors = { ...problemsByField(save.error), ...(labelsProblem ? { labels: labelsProblem } : {}) }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const problem = rowsProblem(draft.labels, 'label')
    setLabelsProblem(problem)
    if (!problem) save.mutate({ id: draft.id, ...requestOf(draft) })
  }
  if (registered) {
    return (
      <Dialog open wide title={`Runner “${registered}” is registered`} onClose={onClose}>
        <div className="dialog-body">
          <p className="notice" role="status">
            Start its agent on the machine that holds <code>runner.key</code>. It shows up as idle once it calls in.
          </p>
          <Command text={startCommand(org, registered)} copyLabel="Copy start command" />
        </div>
        <DialogFooter label="Done" onAction={onClose} autoFocus />
      </Dialog>
    )
  }
  return (
    <Dialog open wide title="Register a runner" onClose={onClose}>
      <form onSubmit={submit}>
        <ol className="steps">
          <li>
            <h3>Make a key pair on the runner’s machine</h3>
            <p>
              The agent (Java 17) writes the private key to <code>runner.key</code>, where it stays, and prints the public key.
            </p>
            <Command text={KEYGEN} copyLabel="Copy keygen command" />
          </li>
          <li>
            <h3>Register the runner with its public key</h3>
            <RunnerFields draft={draft} onChange={(change) => setDraft((d) => ({ ...d, ...change }))} errors={errors} isNew />
          </li>
          <li>
            <h3>Start the agent</h3>
            <p>
              Once the runner is registered, this connects the agent to Polystack; it then long-polls for jobs. Runner rules decide which
              jobs it gets.
            </p>
            <Command text={startCommand(org, draft.id.trim() || '<runner id>')} copyLabel="Copy start command" />
          </li>
        </ol>
        <FormProblem error={save.error} fields={FIELDS} />
        <DialogFooter label="Register runner" busyLabel="Registering…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

function EditRunnerDialog({ org, runner, onClose, onSaved }: { org: string; runner: Runner; onClose: () => void; onSaved: () => void }) {
  const [draft, setDraft] = useState(() => draftOf(runner))
  const [labelsProblem, setLabelsProblem] = useState<string>()
  const save = useMutation({
    mutationFn: (body: RunnerRequest) =>
      unwrap(
        api.PUT('/api/v1/orgs/{org}/runners/{runner}', {
          params: { path: { org, runner: runner.id! } },
          body: { ...body, version: runner.version },
        }),
      ),
    onSuccess: () => {
      onSaved()
      onClose()
    },
  })
  const errors = { ...problemsByField(save.error), ...(labelsProblem ? { labels: labelsProblem } : {}) }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const problem = rowsProblem(draft.labels, 'label')
    setLabelsProblem(problem)
    if (!problem) save.mutate(requestOf(draft))
  }
  return (
    <Dialog open wide title={`Edit runner “${runner.id}”`} onClose={onClose}>
      <form onSubmit={submit}>
        <RunnerFields draft={draft} onChange={(change) => setDraft((d) => ({ ...d, ...change }))} errors={errors} isNew={false} />
        <FormProblem error={save.error} fields={FIELDS} />
        <DialogFooter label="Save" busyLabel="Saving…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

/** What a runner is running now, each job linked to its deployment. */
function CurrentJobs({ org, runner }: { org: string; runner: Schemas['RunnerView'] }) {
  const jobs = runner.current_jobs ?? []
  return (
    <div>
      <span>
        {jobs.length} of {runner.max_concurrent_jobs}
      </span>
      {jobs.length > 0 && (
        <ul className="plain small">
          {jobs.map((j) => (
            <li key={j.job_id}>
              <Link to={`/orgs/${org}/projects/${j.project}/envs/${j.env}/deployments/${j.deployment_id}`}>
                {j.project}/{j.env}: {j.resource?.split('/').slice(2).join('/')}
              </Link>{' '}
              <span className="muted">
                since <Time value={j.claimed_at} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
