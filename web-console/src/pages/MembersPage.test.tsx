import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { MembersPage } from './MembersPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<MembersPage />, { url: '/orgs/acme/members', path: '/orgs/:org/members', session: fakeSession(role) })

const members = {
  items: [
    { username: 'pat', email: 'pat@acme.test', role: 'owner', created_at: '2026-01-01T00:00:00Z', version: 1 },
    { username: 'sam', email: 'sam@acme.test', role: 'developer', source: 'oidc', created_at: '2026-01-02T00:00:00Z', version: 3 },
  ],
}
const serviceUsers = { items: [{ id: 'ci', role: 'developer', description: 'Pipelines', created_at: '2026-01-01T00:00:00Z', version: 2 }] }
const tokenId = '8d7c0f56-2222-4c1e-9c55-000000000001'

describe('MembersPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows members and service users read-only to developers, without tokens or group mappings', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'GET /api/v1/orgs/acme/service-users': () => serviceUsers,
    })
    page('developer')
    expect(await screen.findByText('sam')).toBeInTheDocument()
    expect(screen.getByText('sam@acme.test')).toBeInTheDocument()
    expect(screen.getByText('Developer')).toBeInTheDocument()
    // sam's membership comes from a group mapping, pat's was added by hand
    expect(screen.getAllByText('from group')).toHaveLength(1)
    expect(screen.getByText('from group').closest('tr')).toHaveTextContent('sam')
    expect(screen.queryByRole('button', { name: 'Add member' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument()
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument()
    expect(screen.queryByRole('tab', { name: 'OIDC group mappings' })).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('tab', { name: 'Service users' }))
    expect(await screen.findByText('Pipelines')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New service user' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Tokens' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    expect(api.calls.some((c) => c.includes('/tokens') || c.includes('oidc-group-mappings'))).toBe(false)
  })

  it('adds a member with a role', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'POST /api/v1/orgs/acme/members': () => ({ username: 'lee', role: 'platform-engineer' }),
    })
    page('owner')
    await userEvent.click(await screen.findByRole('button', { name: 'Add member' }))
    const dialog = screen.getByRole('dialog', { name: 'Add member' })
    await userEvent.type(within(dialog).getByLabelText('Username'), 'lee')
    await userEvent.selectOptions(within(dialog).getByLabelText('Role'), 'platform-engineer')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }))
    await waitFor(() => expect(api.bodies).toContainEqual({ username: 'lee', role: 'platform-engineer' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add member' })).not.toBeInTheDocument())
  })

  it('changes a member’s role with the version read, and shows a conflict', async () => {
    let attempts = 0
    const api = mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'PUT /api/v1/orgs/acme/members/sam': () =>
        ++attempts === 1
          ? problemResponse(409, 'Conflict', 'member `sam` was changed by someone else')
          : { username: 'sam', role: 'viewer', version: 4 },
    })
    page('owner')
    await userEvent.selectOptions(await screen.findByLabelText('Role of sam'), 'viewer')
    await userEvent.click(screen.getByRole('button', { name: 'Save role' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('member `sam` was changed by someone else')
    expect(api.bodies).toContainEqual({ role: 'viewer', version: 3 })
    await userEvent.click(screen.getByRole('button', { name: 'Save role' }))
    await waitFor(() => expect(attempts).toBe(2))
  })

  it('removes a member after asking', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'DELETE /api/v1/orgs/acme/members/sam': () => new Response(null, { status: 204 }),
    })
    page('owner')
    const row = (await screen.findByText('sam')).closest('tr')!
    await userEvent.click(within(row).getByRole('button', { name: 'Remove' }))
    const dialog = screen.getByRole('dialog', { name: 'Remove sam from “acme”?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(api.calls).toContain('DELETE /api/v1/orgs/acme/members/sam'))
  })

  it('creates a service user token, shows it once, and forgets it when the dialog closes', async () => {
    let tokens: unknown[] = []
    const api = mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'GET /api/v1/orgs/acme/service-users': () => serviceUsers,
      'GET /api/v1/orgs/acme/service-users/ci/tokens': () => ({ items: tokens }),
      'POST /api/v1/orgs/acme/service-users/ci/tokens': () => {
        tokens = [{ id: tokenId, name: 'pipeline', prefix: 'pst_9f8e', created_at: '2026-01-03T00:00:00Z' }]
        return { id: tokenId, name: 'pipeline', prefix: 'pst_9f8e', token: 'pst_9f8eTOPSECRET' }
      },
    })
    page('owner')
    await userEvent.click(await screen.findByRole('tab', { name: 'Service users' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Tokens' }))
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
      'GET /api/v1/orgs/acme/members': () => members,
      'GET /api/v1/orgs/acme/service-users': () => ({ items: [] }),
      'POST /api/v1/orgs/acme/service-users': () =>
        problemResponse(400, 'The request is not valid', '1 problem', [{ pointer: '/id', detail: 'must be lowercase' }]),
    })
    page('owner')
    await userEvent.click(await screen.findByRole('tab', { name: 'Service users' }))
    expect(await screen.findByText(/No service users yet/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'New service user' }))
    await userEvent.type(screen.getByLabelText('Id'), 'CI')
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'viewer')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('must be lowercase')).toBeInTheDocument()
    expect(api.bodies).toContainEqual({ id: 'CI', role: 'viewer', description: '' })
  })

  it('edits and saves the OIDC group mappings as a whole', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'GET /api/v1/orgs/acme/oidc-group-mappings': () => ({ mappings: [{ group: 'acme-devs', role: 'developer' }] }),
      'PUT /api/v1/orgs/acme/oidc-group-mappings': async (request) => request.json(),
    })
    page('owner')
    await userEvent.click(await screen.findByRole('tab', { name: 'OIDC group mappings' }))
    expect(await screen.findByDisplayValue('acme-devs')).toBeInTheDocument()
    expect(screen.getByText(/follow the groups at each sign-in/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save mappings' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Add group' }))
    await userEvent.type(screen.getByLabelText('Group 2'), 'acme-platform')
    await userEvent.selectOptions(screen.getByLabelText('Role of group 2'), 'platform-engineer')
    await userEvent.click(screen.getByRole('button', { name: 'Remove group acme-devs' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save mappings' }))
    await waitFor(() => expect(api.bodies).toContainEqual({ mappings: [{ group: 'acme-platform', role: 'platform-engineer' }] }))
    expect(await screen.findByText(/Saved/)).toBeInTheDocument()
  })

  it('shows the problem when the members cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/members': () => problemResponse(404, 'Not found', 'organization `acme` does not exist') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('organization `acme` does not exist')
  })
})
