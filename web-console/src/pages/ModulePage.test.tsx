import { EditorView } from '@codemirror/view'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage, setEditor } from '../test/render'
import { ModulePage } from './ModulePage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<ModulePage />, { url: '/orgs/acme/modules/postgres-rds', path: '/orgs/:org/modules/:module', session: fakeSession(role) })

function editorText(label: string): string {
  return EditorView.findFromDOM(screen.getByTestId(`editor-${label}`).querySelector<HTMLElement>('.cm-editor')!)!.state.doc.toString()
}

const v1: Schemas['ModuleVersionView'] = {
  module_id: 'postgres-rds',
  resource_type: 'postgres',
  version: 1,
  module_source: 'inline',
  module_source_code: 'variable "name" { type = string }\noutput "host" { value = "db" }\n',
  module_params: {},
  module_inputs: { name: '${context.env_id}' },
  provider_mapping: { aws: 'aws.default' },
  dependencies: {},
  created_at: '2024-01-01T00:00:00Z',
}
const v2: Schemas['ModuleVersionView'] = {
  ...v1,
  version: 2,
  module_source_code: 'variable "name" { type = string }\noutput "host" { value = "${var.name}.db" }\noutput "port" { value = 5432 }\n',
  module_params: { version: { type: 'string', is_optional: true, description: 'Major version' } },
  secret_inputs: { password: '***' },
  created_at: '2024-02-01T00:00:00Z',
  module_interface: {
    checked: true,
    variables: [
      { name: 'name', type: 'string', required: true, sensitive: false },
      { name: 'size', type: 'number', required: false, sensitive: false },
    ],
    outputs: [
      { name: 'host', sensitive: false },
      { name: 'token', sensitive: true },
    ],
  },
}
// the module as it is now: a version's fields, with its id for the version's module_id
const { module_id: moduleId, ...definition } = v2
const current: Schemas['ModuleView'] = { ...definition, id: moduleId, updated_at: '2024-02-01T00:00:00Z' }

const handlers = {
  'GET /api/v1/orgs/acme/modules/postgres-rds': (): Schemas['ModuleView'] => current,
  'GET /api/v1/orgs/acme/modules/postgres-rds/versions': (): Schemas['PageModuleVersionView'] => ({ items: [v2, v1] }),
}

describe('ModulePage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows the current version read-only to developers, secrets as stored only', async () => {
    mockApi(handlers)
    page('developer')
    expect(await screen.findByRole('heading', { name: 'postgres-rds' })).toBeInTheDocument()
    expect(await screen.findByText(/output "port"/)).toBeInTheDocument()
    expect(screen.getByRole('cell', { name: 'version' })).toBeInTheDocument()
    expect(screen.getByText('Major version')).toBeInTheDocument()
    expect(screen.getByText('password')).toBeInTheDocument()
    expect(screen.queryByText(/\*\*\*/)).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
    // what the code declares, as read when the version was saved
    expect(screen.getByRole('heading', { name: 'Variables' })).toBeInTheDocument()
    expect(screen.getByText('none: must be set')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Outputs' })).toBeInTheDocument()
    expect(screen.getAllByText(/sensitive/).length).toBeGreaterThan(0)
  })

  it("says when a module's code was not checked", async () => {
    mockApi({
      ...handlers,
      'GET /api/v1/orgs/acme/modules/postgres-rds': (): Schemas['ModuleView'] => ({
        ...current,
        module_source: 'git::https://x/y.git',
        module_source_code: undefined,
        module_interface: { checked: false, note: 'fetched by the runner, not read', variables: [], outputs: [] },
      }),
    })
    page('viewer')
    expect(await screen.findByText(/not checked — fetched by the runner, not read/)).toBeInTheDocument()
  })

  it('shows the problem when the module cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/modules/postgres-rds': () => problemResponse(404, 'Not found', 'module `postgres-rds`') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('module `postgres-rds`')
  })

  it('lists the versions and shows the lines added and removed between two of them', async () => {
    mockApi(handlers)
    const { container } = page('viewer')
    await userEvent.click(await screen.findByRole('tab', { name: 'Versions (2)' }))
    expect(await screen.findByRole('cell', { name: '2 current' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Changes from 1' }))

    expect(screen.getByLabelText('From version')).toHaveValue('1')
    expect(screen.getByLabelText('To version')).toHaveValue('2')
    const code = screen.getByRole('group', { name: 'Source code: changes from version 1 to 2' })
    const added = [...code.querySelectorAll('.add')].map((l) => l.textContent)
    const removed = [...code.querySelectorAll('.del')].map((l) => l.textContent)
    expect(removed).toEqual(['- output "host" { value = "db" }'])
    expect(added).toEqual(['+ output "host" { value = "${var.name}.db" }', '+ output "port" { value = 5432 }'])
    expect(within(code).getByText('variable "name" { type = string }')).toBeInTheDocument()
    const params = screen.getByRole('group', { name: /^Params:/ })
    expect([...params.querySelectorAll('.add')].map((l) => l.textContent)).toContain('+   "version": {')
    expect(params.querySelector('.del')).toHaveTextContent('- {}')
    expect(screen.getByRole('group', { name: /^Secret input names:/ })).toHaveTextContent('+ password')
    expect(container.querySelectorAll('.diff').length).toBe(3)

    await userEvent.selectOptions(screen.getByLabelText('From version'), '2')
    expect(container.querySelectorAll('.diff').length).toBe(0)
    expect(screen.getAllByText('No changes.')).toHaveLength(7)
  })

  it('compares the previous version with the current one by default', async () => {
    mockApi(handlers)
    page('viewer')
    await userEvent.click(await screen.findByRole('tab', { name: 'Compare versions' }))
    expect(await screen.findByLabelText('From version')).toHaveValue('1')
    expect(screen.getByLabelText('To version')).toHaveValue('2')
  })

  it('edits it into a new version, keeping the stored secret, and shows field errors', async () => {
    let attempts = 0
    const api = mockApi({
      ...handlers,
      'PUT /api/v1/orgs/acme/modules/postgres-rds': () =>
        ++attempts === 1
          ? problemResponse(400, 'The request is not valid', '1 problem', [{ pointer: '/module_source_code', detail: 'is not valid HCL' }])
          : ({ ...current, version: 3 } satisfies Schemas['ModuleView']),
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }))
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByLabelText('Id')).toHaveValue('postgres-rds')
    expect(within(dialog).getByLabelText('Id')).toBeDisabled()
    expect(editorText('Module source code')).toBe(v2.module_source_code)
    expect(within(dialog).getByText('••• stored')).toBeInTheDocument()
    setEditor('Module source code', 'output "host" {')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save as version 3' }))
    expect(await within(dialog).findByText('is not valid HCL')).toBeInTheDocument()

    setEditor('Module source code', 'output "host" { value = "db" }\n')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save as version 3' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.bodies[1]).toEqual({
      module_source: 'inline',
      module_source_code: 'output "host" { value = "db" }\n',
      module_params: v2.module_params,
      module_inputs: v2.module_inputs,
      provider_mapping: v2.provider_mapping,
      dependencies: {},
      secret_inputs: { password: '***' },
      version: 2,
    })
  })
})
