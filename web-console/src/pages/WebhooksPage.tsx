import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton, CopyButton } from '../components/Buttons'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, problemsByField } from '../components/ProblemMessage'
import { Time } from '../components/Time'

type Webhook = Schemas['Webhook']

export const WEBHOOK_EVENTS: { event: string; label: string }[] = [
  { event: 'deployment.started', label: 'a deployment started' },
  { event: 'deployment.succeeded', label: 'a deployment succeeded' },
  { event: 'deployment.failed', label: 'a deployment failed' },
  { event: 'deployment.cancelled', label: 'a deployment was cancelled' },
  { event: 'issue.opened', label: 'an issue opened (drift, a failed check or apply)' },
  { event: 'issue.resolved', label: 'an issue resolved' },
]

function DeliveryStatus({ status }: { status?: string }) {
  const tone = status === 'delivered' ? 'ok' : status === 'failed' ? 'bad' : 'wait'
  return <span className={`badge ${tone}`}>{status}</span>
}

/** A subscription's delivery log, newest first. */
function Deliveries({ org, webhook }: { org: string; webhook: Webhook }) {
  const deliveries = useQuery({
    queryKey: listKeys.webhookDeliveries(org, webhook.id!),
    queryFn: () =>
      unwrap(api.GET('/api/v1/orgs/{org}/webhooks/{id}/deliveries', { params: { path: { org, id: webhook.id! }, query: { limit: 50 } } })),
    refetchInterval: 5_000,
  })
  return (
    <Async query={deliveries} what="the deliveries" isEmpty={(d) => !d.items?.length} empty="Nothing delivered yet.">
      {(d) => (
        <table aria-label={`Deliveries to ${webhook.url}`}>
          <thead>
            <tr>
              <th>Created</th>
              <th>Event</th>
              <th>Subject</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Last answer</th>
            </tr>
          </thead>
          <tbody>
            {d.items!.map((x) => (
              <tr key={x.id}>
                <td className="nowrap">
                  <Time value={x.created_at} />
                </td>
                <td>
                  <code>{x.event_type}</code>
                </td>
                <td className="wrap-anywhere">
                  <code className="small">{x.subject}</code>
                </td>
                <td>
                  <DeliveryStatus status={x.status} />
                  {x.next_attempt_at && (
                    <div className="muted small">
                      next try <Time value={x.next_attempt_at} />
                    </div>
                  )}
                </td>
                <td>{x.attempts}</td>
                <td className="wrap-anywhere">
                  {x.last_status_code ?? ''}
                  {x.last_error ? <div className="small">{x.last_error}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Async>
  )
}

function CreateDialog({ org, onClose }: { org: string; onClose: () => void }) {
  const client = useQueryClient()
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>(['deployment.failed', 'issue.opened'])
  const [description, setDescription] = useState('')
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/webhooks', {
          params: { path: { org } },
          body: { url, events, ...(description.trim() ? { description } : {}) },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: listKeys.webhooks(org) }),
  })
  const errors = problemsByField(create.error)
  if (create.data) {
    return (
      <Dialog open title="Webhook added" onClose={onClose}>
        <div className="dialog-body">
          <p>
            Verify each delivery's <code>webhook-signature</code> with this secret. It is shown only now: keep it in your receiver's secret
            store.
          </p>
          <p>
            <code className="wrap-anywhere" data-testid="webhook-secret">
              {create.data.secret}
            </code>{' '}
            <CopyButton text={create.data.secret ?? ''} />
          </p>
          <p className="hint">
            A test delivery (<code>ping</code>) is on its way; its result appears in the delivery log.
          </p>
        </div>
        <DialogFooter label="Done" onAction={onClose} />
      </Dialog>
    )
  }
  const toggle = (event: string) => setEvents((all) => (all.includes(event) ? all.filter((e) => e !== event) : [...all, event]))
  return (
    <Dialog open title="Add a webhook" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          create.mutate()
        }}>
        <Field
          label="URL"
          error={errors.url}
          hint="http or https; addresses in private networks are refused unless the instance allows them">
          {(p) => (
            <input
              {...p}
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
              placeholder="https://hooks.example.com/polystack"
            />
          )}
        </Field>
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((e) => (
            <label key={e.event} className="check">
              <input type="checkbox" checked={events.includes(e.event)} onChange={() => toggle(e.event)} /> <code>{e.event}</code> —{' '}
              {e.label}
            </label>
          ))}
          {errors.events && <div className="field-error">{errors.events}</div>}
        </fieldset>
        <Field label="Description" error={errors.description}>
          {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} />}
        </Field>
        <FormProblem error={create.error} fields={['url', 'events', 'description']} />
        <DialogFooter label="Add webhook" busy={create.isPending} disabled={events.length === 0} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

/** The organization's webhook subscriptions, each with its delivery log. */
export function WebhooksPage() {
  const { org } = useOrg()
  const client = useQueryClient()
  const [adding, setAdding] = useState(false)
  const [open, setOpen] = useState<string | null>(null)
  const list = useQuery({
    queryKey: listKeys.webhooks(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/webhooks', { params: { path: { org }, query: { limit: 100 } } })),
  })
  return (
    <>
      <PageHeader
        title="Webhooks"
        subtitle="Addresses told of deployments and issues as they happen: signed (Standard Webhooks), retried, in order per deployment or issue.">
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Add webhook
        </button>
      </PageHeader>
      <Async
        query={list}
        what="webhooks"
        isEmpty={(d) => !d.items?.length}
        empty="No webhooks yet. Add one to hear of failed deployments and drift where your team works.">
        {(d) => (
          <table aria-label="Webhooks">
            <thead>
              <tr>
                <th>URL</th>
                <th>Events</th>
                <th>Added</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {d.items!.map((w) => (
                <tr key={w.id}>
                  <td className="wrap-anywhere">
                    <code>{w.url}</code>
                    {w.description && <div className="muted small">{w.description}</div>}
                  </td>
                  <td>
                    {(w.events ?? []).map((e) => (
                      <div key={e}>
                        <code className="small">{e}</code>
                      </div>
                    ))}
                  </td>
                  <td className="nowrap">
                    <Time value={w.created_at} />
                    <div className="muted small">{w.created_by}</div>
                  </td>
                  <td className="nowrap">
                    <button type="button" onClick={() => setOpen(open === w.id ? null : w.id!)} aria-expanded={open === w.id}>
                      {open === w.id ? 'Hide deliveries' : 'Deliveries'}
                    </button>{' '}
                    <ConfirmButton
                      label="Remove"
                      ariaLabel={`Remove the webhook to ${w.url}`}
                      title="Remove this webhook?"
                      onConfirm={async () => {
                        await unwrap(api.DELETE('/api/v1/orgs/{org}/webhooks/{id}', { params: { path: { org, id: w.id! } } }))
                        await client.invalidateQueries({ queryKey: listKeys.webhooks(org) })
                      }}>
                      Deliveries to <code>{w.url}</code> stop, and its delivery log goes with it.
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {open && list.data?.items?.find((w) => w.id === open) && (
        <>
          <h2>Deliveries</h2>
          <Deliveries org={org} webhook={list.data.items.find((w) => w.id === open)!} />
        </>
      )}
      {adding && <CreateDialog org={org} onClose={() => setAdding(false)} />}
    </>
  )
}
