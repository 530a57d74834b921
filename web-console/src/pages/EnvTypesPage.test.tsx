import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { EnvTypesPage } from './EnvTypesPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<EnvTypesPage />, { url: '/orgs/acme/env-types', path: '/orgs/:org/env-types', session: fakeSession(role) })

describe('EnvTypesPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists environment types and hides editing from developers', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/env-types': () => ({ items: [{ id: 'production', description: 'Live' }] }) })
    page('developer')
    expect(await screen.findByText('production')).toBeInTheDocument()
    expect(screen.getByText('Live')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New environment type' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
  })

  it('says which ones configuration as code manages and which are protected', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/env-types': () => ({ items: [
      { id: 'production', managed_by: 'platform-repo', protected: true },
      { id: 'preview', managed_by: null, protected: false },
    ] }) })
    page('platform-engineer')
    expect(await screen.findByText('managed by platform-repo')).toHaveAttribute('title', expect.stringContaining('next apply overwrites'))
    expect(screen.getByText('protected')).toBeInTheDocument()
    expect(screen.getAllByText(/managed by|protected/)).toHaveLength(2)
  })

  it('shows an empty state', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/env-types': () => ({ items: [] }) })
    page('platform-engineer')
    expect(await screen.findByText(/No environment types yet/)).toBeInTheDocument()
  })

  it('creates one and shows the API’s field error next to the field', async () => {
    let attempts = 0
    const api = mockApi({
      'GET /api/v1/orgs/acme/env-types': () => ({ items: [] }),
      'POST /api/v1/orgs/acme/env-types': () => (++attempts === 1
        ? problemResponse(400, 'The request is not valid', '1 problem', [{ pointer: '/id', detail: 'must be lowercase' }])
        : { id: 'staging' }),
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
})
