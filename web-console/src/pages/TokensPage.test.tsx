import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { endOfDay } from '../components/Tokens'
import { TokensPage } from './TokensPage'

const page = (role: Parameters<typeof fakeSession>[0] = 'viewer') =>
  renderPage(<TokensPage />, { url: '/orgs/acme/tokens', path: '/orgs/:org/tokens', session: fakeSession(role) })

const laptop: Schemas['TokenView'] = {
  id: '3f0c5f56-1111-4c1e-9c55-000000000001',
  name: 'laptop',
  prefix: 'pst_ab12',
  created_at: '2026-01-01T10:00:00Z',
  last_used_at: '2026-01-02T10:00:00Z',
}
const old: Schemas['TokenView'] = {
  id: '3f0c5f56-1111-4c1e-9c55-000000000002',
  name: 'old-ci',
  prefix: 'pst_zz99',
  created_at: '2025-01-01T10:00:00Z',
  revoked_at: '2025-06-01T10:00:00Z',
}

describe('TokensPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists my tokens by prefix, never their secret, and only active ones can be revoked', async () => {
    const api = mockApi({ 'GET /api/v1/tokens': (): Schemas['PageTokenView'] => ({ items: [laptop, old] }) })
    page()
    expect(await screen.findByText('laptop')).toBeInTheDocument()
    expect(screen.getByText('pst_ab12…')).toBeInTheDocument()
    const oldRow = screen.getByText('old-ci').closest('tr')!
    expect(within(oldRow).getByText('revoked')).toBeInTheDocument()
    expect(within(oldRow).queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: 'Revoke' })).toHaveLength(1)
    expect(screen.getByRole('link', { name: 'Service users' })).toHaveAttribute('href', '/orgs/acme/service-users')
    expect(api.calls).toContain('GET /api/v1/tokens?limit=500')
  })

  it('shows an empty state', async () => {
    mockApi({ 'GET /api/v1/tokens': (): Schemas['PageTokenView'] => ({ items: [] }) })
    page()
    expect(await screen.findByText(/You have no API tokens yet/)).toBeInTheDocument()
  })

  it('creates a token and shows it once, until the dialog closes', async () => {
    let items: Schemas['TokenView'][] = []
    const api = mockApi({
      'GET /api/v1/tokens': (): Schemas['PageTokenView'] => ({ items }),
      'POST /api/v1/tokens': () => {
        items = [{ ...laptop, name: 'deploy', expires_at: endOfDay('2030-01-31') }]
        return {
          id: laptop.id,
          name: 'deploy',
          prefix: 'pst_ab12',
          token: 'pst_ab12SECRETSECRET',
          expires_at: endOfDay('2030-01-31'),
        } satisfies Schemas['CreatedTokenView']
      },
    })
    page()
    await userEvent.click(await screen.findByRole('button', { name: 'New token' }))
    await userEvent.type(screen.getByLabelText('Name'), 'deploy')
    await userEvent.type(screen.getByLabelText('Expires on'), '2030-01-31')
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }))
    expect(await screen.findByDisplayValue('pst_ab12SECRETSECRET')).toBeInTheDocument()
    expect(screen.getByText(/will not be shown again/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Copy token' })).toBeInTheDocument()
    expect(api.bodies).toContainEqual({ name: 'deploy', expires_at: endOfDay('2030-01-31') })
    expect(await screen.findByText('deploy')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'I have copied it' }))
    expect(screen.queryByDisplayValue('pst_ab12SECRETSECRET')).not.toBeInTheDocument()
    expect(document.body).not.toHaveTextContent('SECRETSECRET')
  })

  it('sends no expiry when none is picked', async () => {
    const api = mockApi({
      'GET /api/v1/tokens': (): Schemas['PageTokenView'] => ({ items: [] }),
      'POST /api/v1/tokens': (): Schemas['CreatedTokenView'] => ({ id: laptop.id, name: 'cli', token: 'pst_x' }),
    })
    page()
    await userEvent.click(await screen.findByRole('button', { name: 'New token' }))
    await userEvent.type(screen.getByLabelText('Name'), 'cli')
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }))
    await waitFor(() => expect(api.bodies).toContainEqual({ name: 'cli' }))
  })

  it('revokes a token', async () => {
    const api = mockApi({
      'GET /api/v1/tokens': (): Schemas['PageTokenView'] => ({ items: [laptop] }),
      'DELETE /api/v1/tokens/[^/]+': (): Schemas['TokenView'] => ({ ...laptop, revoked_at: '2026-02-01T00:00:00Z' }),
    })
    page()
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke' }))
    const dialog = screen.getByRole('dialog', { name: 'Revoke token “laptop”?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }))
    await waitFor(() => expect(api.calls).toContain(`DELETE /api/v1/tokens/${laptop.id}`))
  })

  it('shows the API’s problem when a token cannot be created', async () => {
    mockApi({
      'GET /api/v1/tokens': (): Schemas['PageTokenView'] => ({ items: [] }),
      'POST /api/v1/tokens': () => problemResponse(403, 'Forbidden', 'service users cannot create their own tokens'),
    })
    page()
    await userEvent.click(await screen.findByRole('button', { name: 'New token' }))
    await userEvent.type(screen.getByLabelText('Name'), 'x')
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('service users cannot create their own tokens')
  })

  it('shows the problem when the list cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/tokens': () => problemResponse(500, 'Internal Server Error', 'database unavailable') })
    page()
    expect(await screen.findByRole('alert')).toHaveTextContent('database unavailable')
  })
})
