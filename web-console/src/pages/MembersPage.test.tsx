import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { MembersPage } from './MembersPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<MembersPage />, { url: '/orgs/acme/members', path: '/orgs/:org/members', session: fakeSession(role) })

const members: Schemas['PageMemberView'] = {
  items: [
    { username: 'pat', email: 'pat@acme.test', role: 'owner', created_at: '2026-01-01T00:00:00Z', version: 1 },
    { username: 'sam', email: 'sam@acme.test', role: 'developer', source: 'oidc', created_at: '2026-01-02T00:00:00Z', version: 3 },
  ],
}

describe('MembersPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows members read-only to developers, and nothing of service users or group mappings', async () => {
    const api = mockApi({ 'GET /api/v1/orgs/acme/members': () => members })
    page('developer')
    expect(screen.getByRole('heading', { level: 1, name: 'Members' })).toBeInTheDocument()
    expect(await screen.findByText('sam')).toBeInTheDocument()
    expect(screen.getByText('sam@acme.test')).toBeInTheDocument()
    expect(screen.getByText('Developer')).toBeInTheDocument()
    expect(screen.getByText(/Only owners can change members/)).toBeInTheDocument()
    // sam's membership comes from a group mapping, pat's was added by hand
    expect(screen.getAllByText('from group')).toHaveLength(1)
    expect(screen.getByText('from group').closest('tr')).toHaveTextContent('sam')
    expect(screen.queryByRole('button', { name: 'Add member' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument()
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument()
    expect(screen.queryByRole('tab')).not.toBeInTheDocument()
    expect(api.calls).toEqual(['GET /api/v1/orgs/acme/members?limit=500'])
  })

  it('adds a member with a role', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'POST /api/v1/orgs/acme/members': () => ({ username: 'lee', role: 'platform-engineer' }) satisfies Schemas['MemberView'],
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

  it('shows the API’s field errors at their fields, and an error of no field of the form as a problem', async () => {
    mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'POST /api/v1/orgs/acme/members': () =>
        problemResponse(400, 'The request is not valid', '2 problems', [
          { pointer: '/email', detail: 'is not an email address' },
          { pointer: '/version', detail: 'is stale' },
        ]),
    })
    page('owner')
    await userEvent.click(await screen.findByRole('button', { name: 'Add member' }))
    const dialog = screen.getByRole('dialog', { name: 'Add member' })
    await userEvent.type(within(dialog).getByLabelText('Username'), 'lee')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('is stale')
    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription('is not an email address')
  })

  it('changes a member’s role with the version read, and shows a conflict', async () => {
    let attempts = 0
    const api = mockApi({
      'GET /api/v1/orgs/acme/members': () => members,
      'PUT /api/v1/orgs/acme/members/sam': () =>
        ++attempts === 1
          ? problemResponse(409, 'Conflict', 'member `sam` was changed by someone else')
          : ({ username: 'sam', role: 'viewer', version: 4 } satisfies Schemas['MemberView']),
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

  it('shows the problem when the members cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/members': () => problemResponse(404, 'Not found', 'organization `acme` does not exist') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('organization `acme` does not exist')
  })
})
