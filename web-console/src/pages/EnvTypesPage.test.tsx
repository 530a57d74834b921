import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { EnvTypesPage } from './EnvTypesPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<EnvTypesPage />, { url: '/orgs/acme/env-types', path: '/orgs/:org/env-types', session: fakeSession(role) })

const production: Schemas['EnvTypeView'] = { id: 'production', description: 'Live', version: 3, created_at: '2026-12-01T10:00:00Z' }
const gated: Schemas['EnvTypeView'] = {
  ...production,
  approval: {
    deployments: true,
    required: 2,
    approvers: ['platform-engineer', 'owner'],
    allow_self_approval: false,
    expires_after_hours: 24,
  },
  checks: { interval_minutes: 60, window: '22:00-06:00', refresh_only: false },
}

describe('EnvTypesPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists environment types and hides editing from developers', async () => {
    mockApi({
      'GET /api/v1/orgs/acme/env-types': (): Schemas['PageEnvTypeView'] => ({ items: [{ id: 'production', description: 'Live' }] }),
    })
    page('developer')
    expect(await screen.findByText('production')).toBeInTheDocument()
    expect(screen.getByText('Live')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New environment type' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
  })

  it('says which ones configuration as code manages and which are protected', async () => {
    mockApi({
      'GET /api/v1/orgs/acme/env-types': (): Schemas['PageEnvTypeView'] => ({
        items: [
          { id: 'production', managed_by: 'platform-repo', protected: true },
          { id: 'preview', protected: false },
        ],
      }),
    })
    page('platform-engineer')
    expect(await screen.findByText('managed by platform-repo')).toHaveAttribute('title', expect.stringContaining('next apply overwrites'))
    expect(screen.getByText('protected')).toBeInTheDocument()
    expect(screen.getAllByText(/managed by|protected/)).toHaveLength(2)
  })

  it('shows an empty state', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/env-types': (): Schemas['PageEnvTypeView'] => ({ items: [] }) })
    page('platform-engineer')
    expect(await screen.findByText(/No environment types yet/)).toBeInTheDocument()
  })

  it('creates one and shows the API’s field error next to the field', async () => {
    let attempts = 0
    const api = mockApi({
      'GET /api/v1/orgs/acme/env-types': (): Schemas['PageEnvTypeView'] => ({ items: [] }),
      'POST /api/v1/orgs/acme/env-types': () =>
        ++attempts === 1
          ? problemResponse(400, 'The request is not valid', '1 problem', [{ pointer: '/id', detail: 'must be lowercase' }])
          : ({ id: 'staging' } satisfies Schemas['EnvTypeView']),
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'New environment type' }))
    await userEvent.type(screen.getByLabelText('Id'), 'Staging')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('must be lowercase')).toBeInTheDocument()
    expect(screen.getByLabelText('Id')).toHaveAttribute('aria-invalid', 'true')
    await userEvent.clear(screen.getByLabelText('Id'))
    await userEvent.type(screen.getByLabelText('Id'), 'staging')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(api.bodies).toContainEqual({ id: 'staging', description: '' }))
  })

  it('shows the problem in words when the list cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/env-types': () => problemResponse(404, 'Not found', 'organization `acme` does not exist') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('organization `acme` does not exist')
  })

  it('lets platform engineers make deployments wait for approval, schedule drift checks and set what happens to drift', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/env-types': (): Schemas['PageEnvTypeView'] => ({ items: [production] }),
      'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => ({ items: [{ id: 'postgres' }, { id: 'redis' }] }),
      'PUT /api/v1/orgs/acme/env-types/production': (): Schemas['EnvTypeView'] => gated,
    })
    page('platform-engineer')
    expect(await screen.findByText('apply without approval')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit “production”' })
    fireEvent.click(within(dialog).getByLabelText(/Deployments wait for approval/))
    fireEvent.change(within(dialog).getByLabelText('Approvals required'), { target: { value: '2' } })
    fireEvent.click(within(dialog).getByLabelText('Developer'))
    fireEvent.change(within(dialog).getByLabelText('Plans wait at most (hours)'), { target: { value: '48' } })
    fireEvent.change(within(dialog).getByLabelText('Check every (minutes)'), { target: { value: '60' } })
    fireEvent.change(within(dialog).getByLabelText('Window (UTC)'), { target: { value: '22:00-06:00' } })
    fireEvent.click(within(dialog).getByLabelText(/Refresh only/))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add a resource type' }))
    await within(dialog).findByRole('option', { name: 'postgres' })
    fireEvent.change(within(dialog).getByLabelText('Resource type 1'), { target: { value: 'postgres' } })
    fireEvent.change(within(dialog).getByLabelText('Policy 1'), { target: { value: 'auto' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.bodies).toEqual([
      {
        description: 'Live',
        version: 3,
        approval: {
          deployments: true,
          required: 2,
          approvers: ['developer', 'platform-engineer', 'owner'],
          allow_self_approval: false,
          expires_after_hours: 48,
        },
        checks: { interval_minutes: 60, window: '22:00-06:00', refresh_only: true },
        reconcile: { postgres: 'auto' },
      },
    ])
  })

  it('shows the API’s errors at the approval and check fields they concern, and removes settings turned off with {}', async () => {
    let attempts = 0
    const api = mockApi({
      'GET /api/v1/orgs/acme/env-types': (): Schemas['PageEnvTypeView'] => ({ items: [gated] }),
      'PUT /api/v1/orgs/acme/env-types/production': () =>
        ++attempts === 1
          ? problemResponse(400, 'The request is not valid', '2 problems', [
              { pointer: '/approval/approvers', detail: 'size must be between 1 and 4' },
              { pointer: '/checks/interval_minutes', detail: 'must be 0 (off) or at least 10 minutes' },
            ])
          : production,
    })
    page('owner')
    expect(await screen.findByText('wait for 2 approvals by Platform engineer, Owner')).toBeInTheDocument()
    expect(screen.getByText('every 60 minutes, 22:00-06:00 UTC')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit “production”' })
    fireEvent.click(within(dialog).getByLabelText('Platform engineer'))
    fireEvent.click(within(dialog).getByLabelText('Owner'))
    fireEvent.change(within(dialog).getByLabelText('Check every (minutes)'), { target: { value: '5' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    const approvers = within(dialog).getByRole('group', { name: 'Who may approve' })
    expect(await within(approvers).findByText('size must be between 1 and 4')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('Check every (minutes)')).toHaveAttribute('aria-invalid', 'true')
    expect(within(dialog).getByText('must be 0 (off) or at least 10 minutes')).toBeInTheDocument()
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument()
    expect(api.bodies[0]).toMatchObject({ approval: { approvers: [] }, checks: { interval_minutes: 5 } })
    // back to the defaults, deployments not waiting, and no checks: the type has neither setting
    fireEvent.click(within(dialog).getByLabelText('Platform engineer'))
    fireEvent.click(within(dialog).getByLabelText('Owner'))
    fireEvent.click(within(dialog).getByLabelText(/Deployments wait for approval/))
    fireEvent.change(within(dialog).getByLabelText('Approvals required'), { target: { value: '1' } })
    fireEvent.change(within(dialog).getByLabelText('Check every (minutes)'), { target: { value: '' } })
    fireEvent.change(within(dialog).getByLabelText('Window (UTC)'), { target: { value: '' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.bodies[1]).toEqual({ description: 'Live', version: 3, approval: {}, checks: {} })
  })
})
