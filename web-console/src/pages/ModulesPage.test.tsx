import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage, setEditor } from '../test/render'
import { ModulesPage } from './ModulesPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<ModulesPage />, { url: '/orgs/acme/modules', path: '/orgs/:org/modules', session: fakeSession(role) })

const modules: Schemas['ModuleView'][] = [
  { id: 'postgres-rds', resource_type: 'postgres', version: 3, module_source: 'inline', updated_at: '2024-05-01T10:00:00Z' },
  { id: 'bucket', resource_type: 's3', version: 1, module_source: 'git::https://example.com/m.git//s3?ref=v1' },
]
const resourceTypes: Schemas['PageResourceTypeView'] = { items: [{ id: 'postgres' }, { id: 'vpc' }] }

describe('ModulesPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists modules linking to each, read-only for developers', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/modules': (): Schemas['PageModuleView'] => ({ items: modules }) })
    page('developer')
    expect(await screen.findByRole('link', { name: 'postgres-rds' })).toHaveAttribute('href', '/orgs/acme/modules/postgres-rds')
    expect(screen.getByText('v3')).toBeInTheDocument()
    expect(screen.getByText('inline')).toBeInTheDocument()
    expect(screen.getByText('git::https://example.com/m.git//s3?ref=v1')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New module' })).not.toBeInTheDocument()
  })

  it('shows an empty state', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/modules': (): Schemas['PageModuleView'] => ({ items: [] }) })
    page('platform-engineer')
    expect(await screen.findByText(/No modules yet/)).toBeInTheDocument()
  })

  it('shows the problem when the list cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/modules': () => problemResponse(403, 'Forbidden', 'not allowed') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('not allowed')
  })

  it('creates an inline module with its params, inputs, provider mapping and secrets', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/modules': (): Schemas['PageModuleView'] => ({ items: [] }),
      'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => resourceTypes,
      'POST /api/v1/orgs/acme/modules': (): Schemas['ModuleView'] => ({ id: 'postgres-rds', version: 1 }),
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'New module' }))
    await userEvent.type(screen.getByLabelText('Id'), 'postgres-rds')
    await screen.findByRole('option', { name: 'postgres' })
    await userEvent.selectOptions(screen.getByLabelText('Resource type'), 'postgres')
    expect(screen.getByLabelText('Module source')).toHaveValue('inline')
    setEditor('Module source code', 'variable "name" { type = string }\n')
    setEditor('Params', '{"version": {"type": "string", "is_optional": true}}')
    setEditor('Inputs', '{"name": "${context.env_id}-${context.res_id}"}')
    setEditor('Provider mapping', '{"aws": "aws.default"}')
    await userEvent.click(screen.getByRole('button', { name: 'Add secret input' }))
    await userEvent.type(screen.getByLabelText('Secret input name 1'), 'password')
    await userEvent.type(screen.getByLabelText('Secret input value 1'), 's3cret')
    expect(screen.getByLabelText('Secret input value 1')).toHaveAttribute('type', 'password')
    await userEvent.click(screen.getByRole('button', { name: 'Create module' }))
    await waitFor(() =>
      expect(api.bodies).toEqual([
        {
          id: 'postgres-rds',
          resource_type: 'postgres',
          module_source: 'inline',
          module_source_code: 'variable "name" { type = string }\n',
          module_params: { version: { type: 'string', is_optional: true } },
          module_inputs: { name: '${context.env_id}-${context.res_id}' },
          provider_mapping: { aws: 'aws.default' },
          dependencies: {},
          secret_inputs: { password: 's3cret' },
        },
      ]),
    )
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('checks params before sending, and shows the API’s errors at their fields', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/modules': (): Schemas['PageModuleView'] => ({ items: [] }),
      'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => resourceTypes,
      'POST /api/v1/orgs/acme/modules': () =>
        problemResponse(422, 'The request cannot be processed', '1 problem', [
          { pointer: '/dependencies/net/type', detail: 'unknown resource type `vpcc`' },
        ]),
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'New module' }))
    await userEvent.type(screen.getByLabelText('Id'), 'app')
    await screen.findByRole('option', { name: 'vpc' })
    await userEvent.selectOptions(screen.getByLabelText('Resource type'), 'postgres')
    await userEvent.clear(screen.getByLabelText('Module source'))
    await userEvent.type(screen.getByLabelText('Module source'), 'git::https://example.com/m.git')
    expect(screen.queryByTestId('editor-Module source code')).not.toBeInTheDocument()
    setEditor('Params', '{\n  "size": {"type": "integer"}\n}')
    await userEvent.click(screen.getByRole('button', { name: 'Create module' }))
    expect(await screen.findByText(/^Line 2: size: must be \{"type": …\}/)).toBeInTheDocument()
    expect(api.bodies).toEqual([])

    setEditor('Params', '{"size": {"type": "number"}}')
    setEditor('Dependencies', '{"net": {"type": "vpcc"}}')
    await userEvent.click(screen.getByRole('button', { name: 'Create module' }))
    expect(await screen.findByText('net/type: unknown resource type `vpcc`')).toBeInTheDocument()
    expect(api.bodies).toEqual([
      expect.objectContaining({
        module_source: 'git::https://example.com/m.git',
        dependencies: { net: { type: 'vpcc' } },
      }),
    ])
    expect(api.bodies[0]).not.toHaveProperty('module_source_code')
  })
})
