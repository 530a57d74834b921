import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage, setEditor } from '../test/render'
import { ResourceTypesPage } from './ResourceTypesPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<ResourceTypesPage />, { url: '/orgs/acme/resource-types', path: '/orgs/:org/resource-types', session: fakeSession(role) })

const postgres: Schemas['ResourceTypeView'] = {
  id: 'postgres',
  description: 'PostgreSQL database',
  developer_accessible: true,
  version: 3,
  created_at: '2024-01-01T00:00:00Z',
  output_schema: { type: 'object', required: ['host'], properties: { host: { type: 'string' }, port: { type: 'integer' } } },
}
const vpc: Schemas['ResourceTypeView'] = { id: 'vpc', description: 'Network', developer_accessible: false, version: 1 }

describe('ResourceTypesPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists resource types with their outputs and hides editing from developers', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => ({ items: [postgres, vpc] }) })
    page('developer')
    expect(await screen.findByText('postgres')).toBeInTheDocument()
    expect(screen.getByText('PostgreSQL database')).toBeInTheDocument()
    expect(screen.getByText('host*, port')).toBeInTheDocument()
    expect(screen.getByText('no, dependency only')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New resource type' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
  })

  it('shows an empty state', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => ({ items: [] }) })
    page('platform-engineer')
    expect(await screen.findByText(/No resource types yet/)).toBeInTheDocument()
  })

  it('shows the problem when the list cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/resource-types': () => problemResponse(500, 'Internal error', 'the database is down') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('the database is down')
  })

  it('keeps invalid JSON from being sent and says where it is wrong', async () => {
    const api = mockApi({ 'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => ({ items: [] }) })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'New resource type' }))
    await userEvent.type(screen.getByLabelText('Id'), 'queue')
    setEditor('Output schema', '{\n  "type": "object",\n  properties: {}\n}')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(/^Line 3: Not valid JSON/)).toBeInTheDocument()
    const marked = screen.getByTestId('editor-Output schema').querySelector('.cm-lintRange-error')
    expect(marked).toHaveTextContent('properties: {}')

    setEditor('Output schema', '["host"]')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Line 1: Must be a JSON object, in braces: { … }')).toBeInTheDocument()
    expect(api.calls.filter((c) => c.startsWith('POST'))).toEqual([])
  })

  it('creates one, and shows the API’s schema error next to the editor', async () => {
    let attempts = 0
    const api = mockApi({
      'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => ({ items: [] }),
      'POST /api/v1/orgs/acme/resource-types': () =>
        ++attempts === 1
          ? problemResponse(400, 'The request is not valid', '/output_schema is not a valid JSON Schema', [
              { pointer: '/output_schema/properties/port/type', detail: 'must be a JSON Schema type' },
            ])
          : ({ id: 'queue' } satisfies Schemas['ResourceTypeView']),
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'New resource type' }))
    await userEvent.type(screen.getByLabelText('Id'), 'queue')
    await userEvent.type(screen.getByLabelText('Description'), 'Message queue')
    await userEvent.click(screen.getByLabelText(/Developers may ask for it/))
    setEditor('Output schema', '{"type": "object", "properties": {"port": {"type": "int"}}}')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('properties/port/type: must be a JSON Schema type')).toBeInTheDocument()
    expect(api.bodies[0]).toEqual({
      id: 'queue',
      description: 'Message queue',
      developer_accessible: false,
      output_schema: { type: 'object', properties: { port: { type: 'int' } } },
    })

    setEditor('Output schema', '{"type": "object", "properties": {"port": {"type": "integer"}}}')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.bodies[1]).toMatchObject({ output_schema: { properties: { port: { type: 'integer' } } } })
  })

  it('edits one with the version it read', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => ({ items: [postgres] }),
      'PUT /api/v1/orgs/acme/resource-types/postgres': (): Schemas['ResourceTypeView'] => postgres,
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit postgres' }))
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByLabelText('Id')).toBeDisabled()
    await userEvent.clear(within(dialog).getByLabelText('Description'))
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Postgres')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(api.bodies).toEqual([
        {
          description: 'Postgres',
          developer_accessible: true,
          output_schema: postgres.output_schema,
          version: 3,
        },
      ]),
    )
  })
})
