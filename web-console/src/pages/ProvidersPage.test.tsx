import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage, setEditor } from '../test/render'
import { ProvidersPage } from './ProvidersPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<ProvidersPage />, { url: '/orgs/acme/providers', path: '/orgs/:org/providers', session: fakeSession(role) })

const aws: Schemas['ProviderView'] = {
  provider_type: 'aws',
  id: 'default',
  source: 'hashicorp/aws',
  version_constraint: '~> 5.0',
  version: 4,
  configuration: { region: 'eu-west-1' },
  secrets: { access_key: '***', secret_key: '***' },
  updated_at: '2024-03-01T00:00:00Z',
}

/** Every value the page shows or holds in an input. */
function visibleText(container: HTMLElement): string {
  const values = [...container.ownerDocument.querySelectorAll('input')].map((i) => i.value)
  return `${container.ownerDocument.body.textContent} ${values.join(' ')}`
}

describe('ProvidersPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists providers with secret names only, read-only for developers', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/providers': (): Schemas['PageProviderView'] => ({ items: [aws] }) })
    const { container } = page('developer')
    expect(await screen.findByRole('cell', { name: 'aws.default' })).toBeInTheDocument()
    expect(screen.getByText('hashicorp/aws')).toBeInTheDocument()
    expect(screen.getByText('~> 5.0')).toBeInTheDocument()
    expect(screen.getByText('access_key')).toBeInTheDocument()
    expect(screen.getAllByText('set')).toHaveLength(2)
    expect(visibleText(container)).not.toContain('***')
    expect(screen.queryByRole('button', { name: 'New provider' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
  })

  it('shows an empty state', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/providers': (): Schemas['PageProviderView'] => ({ items: [] }) })
    page('platform-engineer')
    expect(await screen.findByText(/No providers yet/)).toBeInTheDocument()
  })

  it('shows the problem when the list cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/providers': () => problemResponse(500, 'Internal error', 'it broke') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('it broke')
  })

  it('keeps untouched secrets as ***, sends replaced ones and drops removed ones, never showing them', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/providers': (): Schemas['PageProviderView'] => ({ items: [aws] }),
      'PUT /api/v1/orgs/acme/providers/aws/default': (): Schemas['ProviderView'] => aws,
    })
    const { container } = page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit aws.default' }))
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getAllByText('••• stored')).toHaveLength(2)
    expect(visibleText(container)).not.toContain('***')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(api.bodies).toHaveLength(1))
    expect(api.bodies[0]).toEqual({
      source: 'hashicorp/aws',
      version_constraint: '~> 5.0',
      configuration: { region: 'eu-west-1' },
      secrets: { access_key: '***', secret_key: '***' },
      version: 4,
    })
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await userEvent.click(screen.getByRole('button', { name: 'Edit aws.default' }))
    await userEvent.click(screen.getByRole('button', { name: 'Replace secret_key' }))
    const replaced = screen.getByLabelText('New value of secret_key')
    expect(replaced).toHaveAttribute('type', 'password')
    expect(replaced).toHaveValue('')
    await userEvent.type(replaced, 'new-secret')
    await userEvent.click(screen.getByRole('button', { name: 'Remove access_key' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(api.bodies).toHaveLength(2))
    expect(api.bodies[1]).toMatchObject({ secrets: { secret_key: 'new-secret' }, version: 4 })
  })

  it('creates one and shows the API’s errors at their fields', async () => {
    let attempts = 0
    const api = mockApi({
      'GET /api/v1/orgs/acme/providers': (): Schemas['PageProviderView'] => ({ items: [] }),
      'POST /api/v1/orgs/acme/providers': () =>
        ++attempts === 1
          ? problemResponse(400, 'The request is not valid', '1 problem', [
              { pointer: '/secrets/region', detail: 'is also set in /configuration; give it in one place' },
            ])
          : ({ ...aws, id: 'eu' } satisfies Schemas['ProviderView']),
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'New provider' }))
    await userEvent.type(screen.getByLabelText('Provider type'), 'aws')
    await userEvent.type(screen.getByLabelText('Id'), 'eu')
    await userEvent.type(screen.getByLabelText('Source'), 'hashicorp/aws')
    setEditor('Configuration', '{"region": "eu-west-1"}')
    await userEvent.click(screen.getByRole('button', { name: 'Add secret' }))
    await userEvent.type(screen.getByLabelText('Secret name 1'), 'region')
    await userEvent.type(screen.getByLabelText('Secret value 1'), 'x')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('region: is also set in /configuration; give it in one place')).toBeInTheDocument()
    expect(api.bodies[0]).toEqual({
      provider_type: 'aws',
      id: 'eu',
      source: 'hashicorp/aws',
      configuration: { region: 'eu-west-1' },
      secrets: { region: 'x' },
    })

    await userEvent.clear(screen.getByLabelText('Secret name 1'))
    await userEvent.type(screen.getByLabelText('Secret name 1'), 'access_key')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.bodies[1]).toMatchObject({ secrets: { access_key: 'x' } })
  })
})
