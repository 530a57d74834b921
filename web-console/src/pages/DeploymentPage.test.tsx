import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeSession, mockApi, renderPage } from '../test/render'
import { DeploymentPage } from './DeploymentPage'

const BASE = '/api/v1/orgs/acme/projects/shop/envs/prod/deployments/d-1'
const node = (id: string, status: string, error?: string) => ({
  type: 'thing', class: 'default', id, operation: 'apply', action: 'create', status, module_id: 'thing', module_version: 1,
  runner_id: 'r1', attempt: 1, error, started_at: '2026-12-01T10:00:00Z', finished_at: '2026-12-01T10:00:09Z',
})

describe('DeploymentPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('says at the top which resource failed and why, and opens its logs from there', async () => {
    const api = mockApi({
      [`GET ${BASE}`]: () => ({
        id: 'd-1', mode: 'deploy', status: 'failed', created_by: 'pat', error: '1 of 2 resources failed',
        created_at: '2026-12-01T10:00:00Z', started_at: '2026-12-01T10:00:00Z', finished_at: '2026-12-01T10:00:10Z',
        progress: { failed: 1, succeeded: 1, total: 2, done: 2 },
        failures: [{ resource: 'app.db', error: 'Error: creating db: quota exceeded' }],
        nodes: [node('app.db', 'failed', 'Error: creating db: quota exceeded\n\n  with module.main.thing.this'), node('app.api', 'succeeded')],
      }),
      [`GET ${BASE}/graph`]: () => ({ nodes: [], edges: [] }),
      [`GET ${BASE}/logs`]: () => new Response('event: end\ndata: {}\n\n', { headers: { 'Content-Type': 'text/event-stream' } }),
    })
    renderPage(<DeploymentPage />, {
      url: '/orgs/acme/projects/shop/envs/prod/deployments/d-1', path: '/orgs/:org/projects/:project/envs/:env/deployments/:id',
      session: fakeSession('developer'),
    })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('1 of 2 resources failed')
    expect(alert).toHaveTextContent('app.db: Error: creating db: quota exceeded')
    await userEvent.click(within(alert).getByRole('button', { name: 'Show its logs' }))
    expect(await screen.findByRole('heading', { name: 'Logs of app.db' })).toBeInTheDocument()
    expect(api.calls.some((c) => c.startsWith(`GET ${BASE}/logs?follow=true&node=thing%2Fdefault%2Fapp.db`))).toBe(true)
  })
})
