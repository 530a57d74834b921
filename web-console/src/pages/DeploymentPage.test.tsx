import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { DeploymentPage } from './DeploymentPage'

const BASE = '/api/v1/orgs/acme/projects/shop/envs/prod/deployments/d-1'
const node = (id: string, status: string, error?: string): Schemas['NodeView'] => ({
  type: 'thing',
  class: 'default',
  id,
  operation: 'apply',
  action: 'create',
  status,
  module_id: 'thing',
  module_version: 1,
  runner_id: 'r1',
  attempt: 1,
  error,
  started_at: '2026-12-01T10:00:00Z',
  finished_at: '2026-12-01T10:00:09Z',
})

const FINGERPRINT = 'sha256:9b1d4f0c2e7a'
const planned = (id: string, type: string, action: string, plan_summary: Schemas['NodeView']['plan_summary']): Schemas['NodeView'] => ({
  type,
  class: 'default',
  id,
  operation: 'apply',
  action,
  status: 'planned',
  module_id: type,
  module_version: 1,
  plan_summary,
})
const awaiting: Schemas['DeploymentView'] = {
  id: 'd-1',
  project: 'shop',
  env: 'prod',
  mode: 'deploy',
  status: 'awaiting_approval',
  created_by: 'alice',
  created_at: '2026-12-01T10:00:00Z',
  started_at: '2026-12-01T10:00:00Z',
  progress: { planned: 3, unchanged: 1, total: 4, done: 1 },
  changes: { add: 1, change: 1, destroy: 0 },
  nodes: [
    planned('app.db', 'postgres', 'update', { add: 0, change: 1, destroy: 0 }),
    planned('app.queue', 'sqs', 'create', { add: 1, change: 0, destroy: 0 }),
    planned('app.cache', 'redis', 'create', {
      known_after_apply: true,
      reason: 'its inputs are known after postgres/default/app.db apply',
    }),
    { ...node('app.api', 'unchanged'), action: 'no-op' },
  ],
  approval: {
    state: 'awaiting',
    required: 2,
    approvers: ['platform-engineer', 'owner'],
    allow_self_approval: false,
    fingerprint: FINGERPRINT,
    expires_at: '2026-12-02T10:00:00Z',
    decisions: [
      {
        id: 'a-1',
        decision: 'approve',
        comment: 'the schema change is expected',
        user: 'bob',
        role: 'owner',
        fingerprint: FINGERPRINT,
        created_at: '2026-12-01T10:05:00Z',
      },
    ],
  },
}

const deploymentPage = (role: Parameters<typeof fakeSession>[0], name = 'pat') =>
  renderPage(<DeploymentPage />, {
    url: '/orgs/acme/projects/shop/envs/prod/deployments/d-1',
    path: '/orgs/:org/projects/:project/envs/:env/deployments/:id',
    session: fakeSession(role, 'acme', { name }),
  })

const withoutLogs = {
  [`GET ${BASE}/graph`]: (): Schemas['GraphView'] => ({ nodes: [], edges: [] }),
  [`GET ${BASE}/logs`]: () => new Response('event: end\ndata: {}\n\n', { headers: { 'Content-Type': 'text/event-stream' } }),
}

describe('DeploymentPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('says at the top which resource failed and why, and opens its logs from there', async () => {
    const api = mockApi({
      [`GET ${BASE}`]: (): Schemas['DeploymentView'] => ({
        id: 'd-1',
        mode: 'deploy',
        status: 'failed',
        created_by: 'pat',
        error: '1 of 2 resources failed',
        created_at: '2026-12-01T10:00:00Z',
        started_at: '2026-12-01T10:00:00Z',
        finished_at: '2026-12-01T10:00:10Z',
        progress: { failed: 1, succeeded: 1, total: 2, done: 2 },
        failures: [{ resource: 'app.db', error: 'Error: creating db: quota exceeded' }],
        nodes: [
          node('app.db', 'failed', 'Error: creating db: quota exceeded\n\n  with module.main.thing.this'),
          node('app.api', 'succeeded'),
        ],
      }),
      [`GET ${BASE}/graph`]: (): Schemas['GraphView'] => ({ nodes: [], edges: [] }),
      [`GET ${BASE}/logs`]: () => new Response('event: end\ndata: {}\n\n', { headers: { 'Content-Type': 'text/event-stream' } }),
    })
    renderPage(<DeploymentPage />, {
      url: '/orgs/acme/projects/shop/envs/prod/deployments/d-1',
      path: '/orgs/:org/projects/:project/envs/:env/deployments/:id',
      session: fakeSession('developer'),
    })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('1 of 2 resources failed')
    expect(alert).toHaveTextContent('app.db: Error: creating db: quota exceeded')
    await userEvent.click(within(alert).getByRole('button', { name: 'Show its logs' }))
    expect(await screen.findByRole('heading', { name: 'Logs of app.db' })).toBeInTheDocument()
    expect(api.calls.some((c) => c.startsWith(`GET ${BASE}/logs?follow=true&node=thing%2Fdefault%2Fapp.db`))).toBe(true)
  })

  it('shows the plan a deployment waits with and the approvals so far, and approves it with the plan’s fingerprint and a comment', async () => {
    let approved = false
    const api = mockApi({
      [`GET ${BASE}`]: (): Schemas['DeploymentView'] =>
        approved
          ? {
              ...awaiting,
              status: 'running',
              approval: {
                ...awaiting.approval,
                state: 'approved',
                decisions: [
                  ...awaiting.approval!.decisions!,
                  {
                    id: 'a-2',
                    decision: 'approve',
                    comment: 'go',
                    user: 'pat',
                    role: 'platform-engineer',
                    fingerprint: FINGERPRINT,
                    created_at: '2026-12-01T10:06:00Z',
                  },
                ],
              },
            }
          : awaiting,
      [`POST ${BASE}/approvals`]: () => {
        approved = true
        const decision: Schemas['Approval'] = { id: 'a-2', decision: 'approve', user: 'pat', fingerprint: FINGERPRINT }
        return new Response(JSON.stringify(decision), {
          status: 201,
          headers: { 'Content-Type': 'application/json' },
        })
      },
      ...withoutLogs,
    })
    deploymentPage('platform-engineer')
    const card = await screen.findByRole('region', { name: 'Approval' })
    expect(screen.getAllByText('awaiting approval')[0]).toHaveClass('badge', 'wait')
    expect(card).toHaveTextContent('1 of 2 given')
    expect(card).toHaveTextContent('Platform engineer, Owner; not whoever started it')
    expect(card).toHaveTextContent(FINGERPRINT)
    const decision = within(within(card).getByRole('table', { name: 'Decisions' }))
      .getByText('bob')
      .closest('tr')!
    expect(decision).toHaveTextContent('Owner')
    expect(within(decision).getByText('approved')).toHaveClass('badge', 'ok')
    expect(decision).toHaveTextContent('the schema change is expected')

    const plan = within(card).getByRole('table', { name: 'Planned changes' })
    const db = within(plan).getByText('app.db').closest('tr')!
    expect(db).toHaveTextContent('update')
    expect(within(db).getByLabelText('0 to add, 1 to change, 0 to destroy')).toHaveTextContent('+0 ~1 −0')
    expect(within(plan).getByText('app.cache').closest('tr')).toHaveTextContent(
      'known after apply (its inputs are known after postgres/default/app.db apply)',
    )
    expect(within(plan).queryByText('app.api')).not.toBeInTheDocument()
    expect(within(plan).getByText('In total').closest('tr')).toContainElement(
      within(plan).getByLabelText('1 to add, 1 to change, 0 to destroy'),
    )
    expect(card).toHaveTextContent('1 more resource stays as it is.')

    fireEvent.click(within(card).getByRole('button', { name: 'Approve' }))
    const dialog = await screen.findByRole('dialog', { name: 'Approve the plan' })
    expect(dialog).toHaveTextContent('With your approval it applies.')
    fireEvent.change(within(dialog).getByLabelText('Comment'), { target: { value: 'checked the plan' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.bodies).toEqual([{ decision: 'approve', fingerprint: FINGERPRINT, comment: 'checked the plan' }])
    expect(await within(card).findByText('The plan had enough approvals; what it showed is applied.')).toBeInTheDocument()
    expect(card).toHaveTextContent('2 of 2 given')
    expect(within(card).queryByRole('table', { name: 'Planned changes' })).not.toBeInTheDocument()
  })

  it('shows in the dialog why a stale plan cannot be approved, and that the deployment failed', async () => {
    let refused = false
    mockApi({
      [`GET ${BASE}`]: (): Schemas['DeploymentView'] =>
        refused
          ? {
              ...awaiting,
              status: 'failed',
              error: 'not applied: the plan is stale, postgres/default/app.db changed; create a new deployment to plan again',
              approval: { ...awaiting.approval, state: 'stale' },
            }
          : awaiting,
      [`POST ${BASE}/approvals`]: () => {
        refused = true
        return problemResponse(
          409,
          'Conflict',
          'the plan of deployment d-1 is stale: postgres/default/app.db changed. ' +
            'The deployment failed without applying anything; create a new deployment to plan again',
        )
      },
      ...withoutLogs,
    })
    deploymentPage('owner')
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }))
    const dialog = await screen.findByRole('dialog', { name: 'Approve the plan' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The deployment failed without applying anything; create a new deployment to plan again',
    )
    const card = screen.getByRole('region', { name: 'Approval' })
    expect(await within(card).findByText('plan stale')).toHaveClass('badge', 'bad')
    expect(within(card).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Approve the plan' })).toBeInTheDocument()
  })

  it('rejects a plan with the reason, and offers no decision to whoever started it or to roles that may not decide', async () => {
    const api = mockApi({
      [`GET ${BASE}`]: () => awaiting,
      [`POST ${BASE}/approvals`]: () => ({ id: 'a-2', decision: 'reject' }) satisfies Schemas['Approval'],
      ...withoutLogs,
    })
    const first = deploymentPage('owner')
    fireEvent.click(await screen.findByRole('button', { name: 'Reject' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reject the plan' })
    fireEvent.change(within(dialog).getByLabelText('Comment'), { target: { value: 'not during the sale' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }))
    await waitFor(() => expect(api.bodies).toEqual([{ decision: 'reject', fingerprint: FINGERPRINT, comment: 'not during the sale' }]))
    first.unmount()

    const own = deploymentPage('platform-engineer', 'alice')
    expect(await screen.findByText('You started this deployment: another member must approve or reject it.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()
    own.unmount()

    deploymentPage('developer')
    expect(await screen.findByText('Your role may not decide on it.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()
    expect(screen.getByRole('table', { name: 'Planned changes' })).toBeInTheDocument()
  })
})
