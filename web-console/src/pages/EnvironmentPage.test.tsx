import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, renderPage } from '../test/render'
import { EnvironmentPage } from './EnvironmentPage'

const page = () =>
  renderPage(<EnvironmentPage />, {
    url: '/orgs/acme/projects/shop/envs/prod?tab=deployments',
    path: '/orgs/:org/projects/:project/envs/:env',
    session: fakeSession('developer'),
  })

const progress = (failed: number) => ({ failed, succeeded: 2, total: 2 + failed, done: 2 + failed })

describe('EnvironmentPage deployments', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists per deployment what changed, what failed and why, how long it took and who started it', async () => {
    mockApi({
      'GET /api/v1/orgs/acme/projects/shop/envs/prod': (): Schemas['EnvironmentView'] => ({
        id: 'prod',
        env_type_id: 'production',
        status: 'active',
      }),
      'GET /api/v1/orgs/acme/projects/shop/envs/prod/deployments': (): Schemas['PageDeploymentView'] => ({
        items: [
          {
            id: 'd-2',
            mode: 'deploy',
            status: 'failed',
            created_by: 'service:ci',
            manifest_version: 3,
            created_at: '2026-12-01T10:00:00Z',
            started_at: '2026-12-01T10:00:00Z',
            finished_at: '2026-12-01T10:01:05Z',
            progress: progress(12),
            changes: { add: 2, change: 1, destroy: 0 },
            failures: Array.from({ length: 10 }, (_, i) => ({ resource: `app.db${i}`, error: `Error: creating db ${i}: quota exceeded` })),
          },
          {
            id: 'd-1',
            mode: 'deploy',
            status: 'succeeded',
            created_by: 'pat',
            manifest_version: 2,
            created_at: '2026-12-01T09:00:00Z',
            started_at: '2026-12-01T09:00:00Z',
            finished_at: '2026-12-01T09:00:42Z',
            progress: progress(0),
            changes: { add: 0, change: 0, destroy: 3 },
            failures: [],
          },
        ],
      }),
    })
    page()
    const rows = within(await screen.findByRole('table', { name: 'Deployments' }))
      .getAllByRole('row')
      .slice(1)
    expect(rows).toHaveLength(2)
    const failed = rows[0]
    expect(within(failed).getByLabelText('2 added, 1 changed, 0 destroyed')).toHaveTextContent('+2 ~1 −0')
    expect(failed).toHaveTextContent('app.db0: Error: creating db 0: quota exceeded')
    expect(failed).toHaveTextContent('and 2 more')
    expect(failed).toHaveTextContent('1m 5s')
    expect(failed).toHaveTextContent('service:ci')
    const succeeded = rows[1]
    expect(within(succeeded).getByLabelText('0 added, 0 changed, 3 destroyed')).toBeInTheDocument()
    expect(succeeded).toHaveTextContent('42s')
    expect(succeeded).toHaveTextContent('pat')
  })
})
