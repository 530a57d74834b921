import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, renderPage } from '../test/render'
import { GroupMappingsPage } from './GroupMappingsPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<GroupMappingsPage />, { url: '/orgs/acme/group-mappings', path: '/orgs/:org/group-mappings', session: fakeSession(role) })

describe('GroupMappingsPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('edits and saves the OIDC group mappings as a whole', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/oidc-group-mappings': () =>
        ({ mappings: [{ group: 'acme-devs', role: 'developer' }] }) satisfies Schemas['GroupMappings'],
      'PUT /api/v1/orgs/acme/oidc-group-mappings': async (request) => (await request.json()) as Schemas['GroupMappings'],
    })
    page('owner')
    expect(screen.getByRole('heading', { level: 1, name: 'OIDC group mappings' })).toBeInTheDocument()
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

  it('is for owners only: others are told so, and nothing is asked of the API', async () => {
    const api = mockApi({})
    page('platform-engineer')
    expect(screen.getByText('Only owners can see and change the group mappings.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save mappings' })).not.toBeInTheDocument()
    expect(api.calls).toEqual([])
  })
})
