import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { ServiceUsersPage } from './ServiceUsersPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<ServiceUsersPage />, { url: '/orgs/acme/service-users', path: '/orgs/:org/service-users', session: fakeSession(role) })

const serviceUsers: Schemas['PageServiceUserView'] = {
  items: [{ id: 'ci', role: 'developer', description: 'Pipelines', created_at: '2026-01-01T00:00:00Z', version: 2 }],
}
const tokenId = '8d7c0f56-2222-4c1e-9c55-000000000001'

describe('ServiceUsersPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows service users read-only to developers, without their tokens', async () => {
    const api = mockApi({ 'GET /api/v1/orgs/acme/service-users': () => serviceUsers })
    page('developer')
    expect(screen.getByRole('heading', { level: 1, name: 'Service users' })).toBeInTheDocument()
    expect(await screen.findByText('Pipelines')).toBeInTheDocument()
    expect(screen.getByText('Developer')).toBeInTheDocument()
    expect(screen.getByText(/Only owners can change service users/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New service user' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Tokens' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    expect(api.calls).toEqual(['GET /api/v1/orgs/acme/service-users?limit=500'])
  })

  it('creates a service user token, shows it once, and forgets it when the dialog closes', async () => {
    let tokens: Schemas['TokenView'][] = []
    const api = mockApi({
      'GET /api/v1/orgs/acme/service-users': () => serviceUsers,
      'GET /api/v1/orgs/acme/service-users/ci/tokens': () => ({ items: tokens }) satisfies Schemas['PageTokenView'],
      'POST /api/v1/orgs/acme/service-users/ci/tokens': () => {
        tokens = [{ id: tokenId, name: 'pipeline', prefix: 'pst_9f8e', created_at: '2026-01-03T00:00:00Z' }]
        return { id: tokenId, name: 'pipeline', prefix: 'pst_9f8e', token: 'pst_9f8eTOPSECRET' } satisfies Schemas['CreatedTokenView']
      },
    })
    page('owner')
    await userEvent.click(await screen.findByRole('button', { name: 'Tokens' }))
    expect(await screen.findByRole('heading', { name: 'API tokens of ci' })).toBeInTheDocument()
    expect(await screen.findByText(/has no tokens yet/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'New token' }))
    await userEvent.type(screen.getByLabelText('Name'), 'pipeline')
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }))
    expect(await screen.findByDisplayValue('pst_9f8eTOPSECRET')).toBeInTheDocument()
    expect(screen.getByText(/will not be shown again/)).toBeInTheDocument()
    expect(api.bodies).toContainEqual({ name: 'pipeline' })
    expect(await screen.findByText('pst_9f8e…')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'I have copied it' }))
    expect(screen.queryByDisplayValue('pst_9f8eTOPSECRET')).not.toBeInTheDocument()
    expect(document.body).not.toHaveTextContent('TOPSECRET')
  })

  it('creates a service user and shows the API’s field error', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/service-users': () => ({ items: [] }) satisfies Schemas['PageServiceUserView'],
      'POST /api/v1/orgs/acme/service-users': () =>
        problemResponse(400, 'The request is not valid', '1 problem', [{ pointer: '/id', detail: 'must be lowercase' }]),
    })
    page('owner')
    expect(await screen.findByText(/No service users yet/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'New service user' }))
    await userEvent.type(screen.getByLabelText('Id'), 'CI')
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'viewer')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('must be lowercase')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(api.bodies).toContainEqual({ id: 'CI', role: 'viewer', description: '' })
  })
})
