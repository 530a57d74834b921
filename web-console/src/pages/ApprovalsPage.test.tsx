import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, renderPage } from '../test/render'
import { ApprovalsPage } from './ApprovalsPage'

const deploy: Schemas['PendingApproval'] = {
  deployment_id: '41111111-2222-4333-8444-555555555555',
  project: 'shop',
  env: 'prod',
  mode: 'deploy',
  created_by: 'alice',
  created_at: '2026-12-02T01:00:00Z',
  changes: { add: 2, change: 1, destroy: 0 },
  approvals: 1,
  required: 2,
  fingerprint: 'sha256:9b1d4f0c2e7a',
  expires_at: '2026-12-03T01:00:00Z',
}

const reconcile: Schemas['PendingApproval'] = {
  deployment_id: '51111111-2222-4333-8444-555555555555',
  project: 'billing',
  env: 'staging',
  mode: 'deploy',
  created_by: 'reconcile',
  created_at: '2026-12-02T02:00:00Z',
  reconciles: ['11111111-2222-4333-8444-555555555555'],
  changes: { add: 0, change: 0, destroy: 1 },
  approvals: 0,
  required: 1,
  fingerprint: 'sha256:0c2e7a9b1d4f',
  expires_at: '2026-12-03T02:00:00Z',
}

const page = () =>
  renderPage(<ApprovalsPage />, { url: '/orgs/acme/approvals', path: '/orgs/:org/approvals', session: fakeSession('platform-engineer') })

describe('ApprovalsPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists the deployments that wait for my decision, each linking to its plan', async () => {
    const api = mockApi({ 'GET /api/v1/orgs/acme/approvals': (): Schemas['PendingApproval'][] => [deploy, reconcile] })
    page()
    const table = await screen.findByRole('table', { name: 'Deployments waiting for your approval' })
    const first = within(table).getByRole('link', { name: 'shop/prod' })
    expect(first).toHaveAttribute('href', '/orgs/acme/projects/shop/envs/prod/deployments/41111111-2222-4333-8444-555555555555')
    const row = first.closest('tr')!
    expect(row).toHaveTextContent('by alice')
    expect(row).toHaveTextContent('1 of 2')
    expect(within(row).getByLabelText('2 to add, 1 to change, 0 to destroy')).toHaveTextContent('+2 ~1 −0')
    expect(within(row).queryByText('reconcile')).not.toBeInTheDocument()
    const fix = within(table).getByRole('link', { name: 'billing/staging' }).closest('tr')!
    expect(within(fix).getByText('reconcile', { selector: '.badge' })).toHaveAttribute('title', 'Puts back what drifted, for one issue')
    expect(fix).toHaveTextContent('0 of 1')
    expect(api.calls).toEqual(['GET /api/v1/orgs/acme/approvals'])
  })

  it('says when nothing waits for me', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/approvals': (): Schemas['PendingApproval'][] => [] })
    page()
    expect(await screen.findByText('Nothing waits for your approval.')).toBeInTheDocument()
  })
})
