import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { IssuesPage, IssuesTab } from './IssuesPage'

const drift: Schemas['Issue'] = {
  id: '11111111-2222-4333-8444-555555555555',
  project: 'shop',
  env: 'prod',
  resource: 'postgres/default/checkout.db',
  resource_type: 'postgres',
  resource_class: 'default',
  resource_id: 'checkout.db',
  kind: 'drift',
  state: 'open',
  summary: 'changed outside Polystack: module.main.aws_db_instance.this (allocated_storage, password)',
  detail: {
    drifted: true,
    changes_pending: true,
    drift: [
      {
        address: 'module.main.aws_db_instance.this',
        actions: ['update'],
        attributes: [
          { path: 'allocated_storage', before: 20, after: 50 },
          { path: 'password', before: '(sensitive)', after: '(sensitive)' },
        ],
      },
    ],
    changes: [{ address: 'module.main.aws_db_instance.this', actions: ['update'] }],
  },
  first_seen: '2026-12-02T01:00:00Z',
  last_seen: '2026-12-02T01:30:00Z',
}

const failed: Schemas['Issue'] = {
  id: '21111111-2222-4333-8444-555555555555',
  project: 'shop',
  env: 'dev',
  resource: 'redis/default/cache',
  resource_type: 'redis',
  resource_class: 'default',
  resource_id: 'cache',
  kind: 'apply-failed',
  state: 'open',
  summary: 'the last apply failed: the provider refused',
  detail: { error: 'the provider refused' },
  first_seen: '2026-12-02T01:10:00Z',
  last_seen: '2026-12-02T01:10:00Z',
  acknowledged_at: '2026-12-02T01:20:00Z',
  acknowledged_by: 'alice',
  ack_comment: 'quota raised, retrying tomorrow',
}

const envTab = (role: Parameters<typeof fakeSession>[0] = 'developer') =>
  renderPage(<IssuesTab org="acme" project="shop" env="prod" />, {
    url: '/orgs/acme/projects/shop/envs/prod',
    path: '/orgs/:org/projects/:project/envs/:env',
    session: fakeSession(role),
  })

describe('Issues', () => {
  afterEach(() => vi.unstubAllGlobals())

  it("lists an environment's open issues with what drifted, sensitive values unshown", async () => {
    const api = mockApi({ 'GET /api/v1/orgs/acme/projects/shop/envs/prod/issues': (): Schemas['PageIssueView'] => ({ items: [drift] }) })
    envTab()
    const row = (await screen.findByText(/changed outside Polystack/)).closest('tr')!
    expect(within(row).getByText('drift')).toHaveClass('badge', 'wait')
    expect(within(row).getByText('checkout.db')).toBeInTheDocument()
    expect(within(row).getByText('allocated_storage').closest('li')).toHaveTextContent('allocated_storage: 20 → 50')
    expect(within(row).getByText('password').closest('li')).toHaveTextContent('password: (sensitive) → (sensitive)')
    expect(api.calls).toEqual(['GET /api/v1/orgs/acme/projects/shop/envs/prod/issues?limit=50&state=open'])
  })

  it('filters by kind and state', async () => {
    const api = mockApi({ 'GET /api/v1/orgs/acme/projects/shop/envs/prod/issues': (): Schemas['PageIssueView'] => ({ items: [] }) })
    envTab()
    expect(await screen.findByText(/No open issues/)).toBeInTheDocument()
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'destructive-drift' } })
    fireEvent.change(screen.getByLabelText('State'), { target: { value: '' } })
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/orgs/acme/projects/shop/envs/prod/issues?limit=50&kind=destructive-drift'))
    expect(await screen.findByText('No issues match these filters.')).toBeInTheDocument()
  })

  it('acknowledges an issue with a comment, and shows what the server refused', async () => {
    let refuse = true
    const api = mockApi({
      'GET /api/v1/orgs/acme/projects/shop/envs/prod/issues': (): Schemas['PageIssueView'] => ({ items: [drift] }),
      'POST /api/v1/orgs/acme/projects/shop/envs/prod/issues/[^/]+/acknowledge': () => {
        if (refuse) {
          refuse = false
          return problemResponse(400, 'Bad request', 'comment: must not be blank', [{ pointer: '/comment', detail: 'must not be blank' }])
        }
        return {
          ...drift,
          acknowledged_at: '2026-12-02T02:00:00Z',
          acknowledged_by: 'pat',
          ack_comment: 'on it',
        } satisfies Schemas['Issue']
      },
    })
    envTab()
    fireEvent.click(await screen.findByRole('button', { name: 'Acknowledge' }))
    const dialog = await screen.findByRole('dialog', { name: /Acknowledge the drift of checkout.db/ })
    fireEvent.change(within(dialog).getByLabelText('Comment'), { target: { value: 'on it' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Acknowledge' }))
    expect(await within(dialog).findByText('must not be blank')).toBeInTheDocument()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Acknowledge' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.bodies).toEqual([{ comment: 'on it' }, { comment: 'on it' }])
  })

  it('lets viewers read but neither acknowledge nor start a check', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/projects/shop/envs/prod/issues': (): Schemas['PageIssueView'] => ({ items: [drift] }) })
    envTab('viewer')
    expect(await screen.findByText(/changed outside Polystack/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Check for drift now' })).not.toBeInTheDocument()
  })

  it('starts a check, and says why when the environment is busy', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/projects/shop/envs/prod/issues': (): Schemas['PageIssueView'] => ({ items: [] }),
      'POST /api/v1/orgs/acme/projects/shop/envs/prod/checks': () =>
        problemResponse(
          409,
          'Conflict',
          'deployment (deploy) d1 of `shop/prod` is running; checks run when the environment has no deployment running or waiting',
        ),
    })
    envTab()
    fireEvent.click(await screen.findByRole('button', { name: 'Check for drift now' }))
    expect(await screen.findByText(/checks run when the environment has no deployment running or waiting/)).toBeInTheDocument()
    expect(api.calls).toContain('POST /api/v1/orgs/acme/projects/shop/envs/prod/checks')
  })

  it("lists the organization's issues with their environments and acknowledgements", async () => {
    mockApi({ 'GET /api/v1/orgs/acme/issues': (): Schemas['PageIssueView'] => ({ items: [drift, failed] }) })
    renderPage(<IssuesPage />, { url: '/orgs/acme/issues', path: '/orgs/:org/issues', session: fakeSession('viewer') })
    const row = (await screen.findByText(/the last apply failed/)).closest('tr')!
    expect(within(row).getByRole('link', { name: 'shop/dev' })).toHaveAttribute('href', '/orgs/acme/projects/shop/envs/dev?tab=issues')
    expect(within(row).getByText('apply failed')).toHaveClass('badge', 'bad')
    expect(within(row).getByText(/acknowledged by alice: “quota raised, retrying tomorrow”/)).toBeInTheDocument()
  })
})
