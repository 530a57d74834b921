import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { EnginePage } from './EnginePage'

const page = () =>
  renderPage(<EnginePage />, {
    url: '/orgs/acme/engine',
    path: '/orgs/:org/engine',
    session: fakeSession('owner', 'acme', { instance_admin: true }),
  })

const where = { org: 'acme', project: 'shop', env: 'prod' }

describe('EnginePage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows stalled deployments with their reason and the jobs no runner took', async () => {
    const api = mockApi({
      'GET /api/v1/admin/engine': (): Schemas['EngineDiagnostics'] => ({
        stalled: [
          {
            id: '11111111-2222-4333-8444-555555555555',
            ...where,
            mode: 'deploy',
            status: 'running',
            created_at: '2026-12-01T10:00:00Z',
            started_at: '2026-12-01T10:00:01Z',
            stalled_reason: 'node thing/default/w.b cannot go from pending to succeeded',
            stalled_at: '2026-12-01T10:05:00Z',
          },
        ],
        long_running: [],
        queues: [{ ...where, queued: 2 }],
        waiting_jobs: [
          {
            job_id: 'j1',
            deployment_id: 'd1',
            ...where,
            resource: 'thing/default/w.a',
            runner: 'r1',
            runner_status: 'offline',
            runner_rule_id: 'all',
            queued_at: '2026-12-01T10:00:02Z',
          },
        ],
        recent_failures: [],
      }),
    })
    page()
    const stalled = (await screen.findByText(/cannot go from pending to succeeded/)).closest('tr')!
    expect(within(stalled).getByRole('link', { name: '11111111' })).toHaveAttribute(
      'href',
      '/orgs/acme/projects/shop/envs/prod/deployments/11111111-2222-4333-8444-555555555555',
    )
    expect(within(stalled).getByText('stalled')).toHaveClass('badge', 'bad')
    const job = screen.getByText('thing/default/w.a').closest('tr')!
    expect(within(job).getByText('offline')).toHaveClass('badge', 'bad')
    expect(within(job).getByText('all')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Queues (1)' })).toBeInTheDocument()
    expect(screen.getByText('No deployment has been running for more than 30 minutes.')).toBeInTheDocument()
    expect(screen.getByText('This replica has seen no advance fail.')).toBeInTheDocument()
    expect(screen.getByText('Every scheduled check that was due could start.')).toBeInTheDocument()
    expect(api.calls).toEqual(['GET /api/v1/admin/engine'])
  })

  it('lists the environments whose scheduled check could not start, with the reason', async () => {
    mockApi({
      'GET /api/v1/admin/engine': (): Schemas['EngineDiagnostics'] => ({
        stalled: [],
        long_running: [],
        queues: [],
        waiting_jobs: [],
        recent_failures: [],
        checks_not_started: [
          {
            ...where,
            reason: 'could not start: an unexpected error (log reference 0f0e0d0c-0b0a-4908-8706-050403020100)',
            at: '2026-12-05T04:00:00Z',
          },
        ],
      }),
    })
    page()
    const row = (await screen.findByText(/log reference 0f0e0d0c/)).closest('tr')!
    expect(within(row).getByRole('link', { name: 'acme/shop/prod' })).toHaveAttribute('href', '/orgs/acme/projects/shop/envs/prod')
    expect(screen.getByRole('heading', { name: 'Scheduled checks that could not start (1)' })).toBeInTheDocument()
  })

  it('says when the caller may not see it', async () => {
    mockApi({ 'GET /api/v1/admin/engine': () => problemResponse(403, 'forbidden', 'instance administrators only') })
    page()
    expect(await screen.findByText(/instance administrators only/)).toBeInTheDocument()
  })
})
