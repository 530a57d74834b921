import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { RulesPage } from './RulesPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<RulesPage />, { url: '/orgs/acme/rules', path: '/orgs/:org/rules', session: fakeSession(role) })

const RDS_RULE = '11111111-aaaa-4bbb-8ccc-000000000001'
const DEFAULT_RULE = '22222222-aaaa-4bbb-8ccc-000000000002'
const RUNNER_RULE = '33333333-aaaa-4bbb-8ccc-000000000003'

const lists = {
  'GET /api/v1/orgs/acme/module-rules': (): Schemas['PageModuleRuleView'] => ({
    items: [
      { id: RDS_RULE, module_id: 'postgres-rds', env_type_id: 'production', created_at: '2026-01-01T00:00:00Z' },
      { id: DEFAULT_RULE, module_id: 'postgres-local', created_at: '2026-01-01T00:00:00Z' },
    ],
  }),
  'GET /api/v1/orgs/acme/runner-rules': (): Schemas['PageRunnerRuleView'] => ({
    items: [
      { id: RUNNER_RULE, runner_id: 'eu-agent', env_type_id: 'production', resource_class: 'large', created_at: '2026-01-01T00:00:00Z' },
    ],
  }),
  'GET /api/v1/orgs/acme/modules': (): Schemas['PageModuleView'] => ({
    items: [
      { id: 'postgres-rds', resource_type: 'postgres' },
      { id: 'postgres-local', resource_type: 'postgres' },
    ],
  }),
  'GET /api/v1/orgs/acme/runners': (): Schemas['PageRunnerView'] => ({ items: [{ id: 'eu-agent' }] }),
  'GET /api/v1/orgs/acme/env-types': (): Schemas['PageEnvTypeView'] => ({ items: [{ id: 'production' }, { id: 'development' }] }),
  'GET /api/v1/orgs/acme/projects': (): Schemas['PageProjectView'] => ({ items: [{ id: 'shop', name: 'Shop' }] }),
  'GET /api/v1/orgs/acme/resource-types': (): Schemas['PageResourceTypeView'] => ({ items: [{ id: 'postgres' }, { id: 'vpc' }] }),
  'GET /api/v1/orgs/acme/projects/shop/envs': (): Schemas['PageEnvironmentView'] => ({
    items: [{ id: 'prod', env_type_id: 'production' }],
  }),
}

const explanation = {
  resource: { type: 'postgres', resource_class: 'default', id: 'shared.db' },
  module: {
    kind: 'module',
    context: { org_id: 'acme', project_id: 'shop', env_id: 'prod', env_type_id: 'production' },
    candidates: [
      {
        rule_id: RDS_RULE,
        target: 'postgres-rds',
        matched: true,
        reasons: ['env_type_id: production = production'],
        specificity: ['env_type_id'],
      },
      {
        rule_id: DEFAULT_RULE,
        target: 'postgres-local',
        matched: true,
        reasons: ['sets no criteria: matches everything'],
        specificity: [],
      },
    ],
    winner: RDS_RULE,
    chosen: 'postgres-rds',
  },
  runner: {
    kind: 'runner',
    candidates: [
      {
        rule_id: RUNNER_RULE,
        target: 'eu-agent',
        matched: false,
        reasons: ['env_type_id: production = production', 'resource_class: large ≠ default'],
        specificity: ['env_type_id', 'resource_class'],
      },
    ],
    error: 'no runner rule matches postgres/default/shared.db in shop/prod',
  },
} satisfies Schemas['ExplainView']

describe('RulesPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists module and runner rules, read-only for developers', async () => {
    mockApi(lists)
    page('developer')
    expect(await screen.findByRole('link', { name: 'postgres-rds' })).toHaveAttribute('href', '/orgs/acme/modules/postgres-rds')
    const everywhere = screen.getByRole('link', { name: 'postgres-local' }).closest('tr')!
    expect(within(everywhere).getByText('no criteria: applies everywhere')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New module rule' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('tab', { name: 'Runner rules' }))
    expect(await screen.findByText('eu-agent')).toBeInTheDocument()
    expect(screen.getByText('large')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New runner rule' })).not.toBeInTheDocument()
  })

  it('shows empty states', async () => {
    mockApi({ ...lists, 'GET /api/v1/orgs/acme/module-rules': () => ({ items: [] }) satisfies Schemas['PageModuleRuleView'] })
    page('platform-engineer')
    expect(await screen.findByText(/No module rules yet/)).toBeInTheDocument()
  })

  it('creates a module rule with only the criteria that are set', async () => {
    const api = mockApi({
      ...lists,
      'POST /api/v1/orgs/acme/module-rules': () => ({ id: 'x', module_id: 'postgres-rds' }) satisfies Schemas['ModuleRuleView'],
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'New module rule' }))
    const dialog = screen.getByRole('dialog', { name: 'New module rule' })
    const module = within(dialog).getByLabelText('Module')
    await waitFor(() => expect(module).toBeEnabled())
    await userEvent.selectOptions(module, 'postgres-rds')
    await userEvent.selectOptions(within(dialog).getByLabelText('Environment type'), 'production')
    await userEvent.type(within(dialog).getByLabelText('Resource class'), 'large')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create rule' }))
    await waitFor(() =>
      expect(api.bodies).toContainEqual({ module_id: 'postgres-rds', env_type_id: 'production', resource_class: 'large' }),
    )
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New module rule' })).not.toBeInTheDocument())
  })

  it('creates a runner rule and shows the API’s problem', async () => {
    const api = mockApi({
      ...lists,
      'POST /api/v1/orgs/acme/runner-rules': () => problemResponse(409, 'Conflict', 'the same rule exists already'),
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('tab', { name: 'Runner rules' }))
    await userEvent.click(await screen.findByRole('button', { name: 'New runner rule' }))
    const dialog = screen.getByRole('dialog', { name: 'New runner rule' })
    const runner = within(dialog).getByLabelText('Runner')
    await waitFor(() => expect(runner).toBeEnabled())
    await userEvent.selectOptions(runner, 'eu-agent')
    await waitFor(() => expect(within(dialog).getByLabelText('Resource type')).toBeEnabled())
    await userEvent.selectOptions(within(dialog).getByLabelText('Resource type'), 'vpc')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create rule' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('the same rule exists already')
    expect(api.bodies).toContainEqual({ runner_id: 'eu-agent', resource_type: 'vpc' })
  })

  it('deletes a rule after asking', async () => {
    const api = mockApi({ ...lists, 'DELETE /api/v1/orgs/acme/module-rules/[^/]+': () => new Response(null, { status: 204 }) })
    page('platform-engineer')
    const row = (await screen.findByRole('link', { name: 'postgres-rds' })).closest('tr')!
    await userEvent.click(within(row).getByRole('button', { name: 'Delete this rule for module “postgres-rds”' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete this rule for module “postgres-rds”?' })
    expect(dialog).toHaveTextContent('env_type_id is production')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(api.calls).toContain(`DELETE /api/v1/orgs/acme/module-rules/${RDS_RULE}`))
  })

  it('explains which module and runner a resource gets, and why', async () => {
    const api = mockApi({ ...lists, 'GET /api/v1/orgs/acme/projects/shop/envs/prod/explain': () => explanation })
    page('viewer')
    const project = await screen.findByLabelText('Project')
    await waitFor(() => expect(project).toBeEnabled())
    await userEvent.selectOptions(project, 'shop')
    const env = screen.getByLabelText('Environment')
    await waitFor(() => expect(within(env).getByRole('option', { name: 'prod (production)' })).toBeInTheDocument())
    await userEvent.selectOptions(env, 'prod')
    await userEvent.selectOptions(screen.getByLabelText('Resource type'), 'postgres')
    expect(screen.getByLabelText('Class')).toHaveValue('default')
    await userEvent.type(screen.getByLabelText('Resource id'), 'shared.db')
    await userEvent.click(screen.getByRole('button', { name: 'Explain' }))

    const moduleCard = await screen.findByRole('region', { name: 'Module' })
    expect(api.calls).toContain('GET /api/v1/orgs/acme/projects/shop/envs/prod/explain?type=postgres&class=default&id=shared.db')
    expect(within(moduleCard).getByText('✓ chosen')).toBeInTheDocument()
    const winnerRow = within(moduleCard).getByText('winner').closest('tr')!
    expect(winnerRow).toHaveClass('selected')
    expect(winnerRow).toHaveTextContent('postgres-rds')
    expect(winnerRow).toHaveTextContent('env_type_id: production = production')
    const other = within(moduleCard).getByText('postgres-local').closest('tr')!
    expect(other).not.toHaveClass('selected')
    expect(other).toHaveTextContent('none')

    const runnerCard = screen.getByRole('region', { name: 'Runner' })
    expect(runnerCard).toHaveTextContent('no runner rule matches postgres/default/shared.db in shop/prod')
    const candidate = within(runnerCard).getByText('eu-agent').closest('tr')!
    expect(within(candidate).getByText('✗ does not match')).toBeInTheDocument()
    expect(within(candidate).getByText('resource_class: large ≠ default')).toBeInTheDocument()
    expect(candidate).not.toHaveClass('selected')
  })

  it('groups the rules: this resource type first, with the criterion that failed first; other types collapsed', async () => {
    const grouped = {
      ...explanation,
      module: {
        ...explanation.module,
        candidates: [
          {
            rule_id: 'r-redis',
            target: 'redis-basic',
            same_type: false,
            matched: false,
            reasons: ['applies to another resource type than `postgres`', 'project_id: shop = shop'],
            specificity: ['project_id'],
          },
          ...explanation.module.candidates.map((c) => ({ ...c, same_type: true })),
          {
            rule_id: 'r-staging',
            target: 'postgres-staging',
            same_type: true,
            matched: false,
            reasons: ['project_id: shop = shop', 'env_id: staging ≠ prod', 'resource_class: large ≠ default'],
            specificity: ['env_id'],
          },
        ],
      },
    } satisfies Schemas['ExplainView']
    mockApi({ ...lists, 'GET /api/v1/orgs/acme/projects/shop/envs/prod/explain': () => grouped })
    page('viewer')
    const project = await screen.findByLabelText('Project')
    await waitFor(() => expect(project).toBeEnabled())
    await userEvent.selectOptions(project, 'shop')
    const env = screen.getByLabelText('Environment')
    await waitFor(() => expect(within(env).getByRole('option', { name: 'prod (production)' })).toBeInTheDocument())
    await userEvent.selectOptions(env, 'prod')
    await userEvent.selectOptions(screen.getByLabelText('Resource type'), 'postgres')
    await userEvent.type(screen.getByLabelText('Resource id'), 'shared.db')
    await userEvent.click(screen.getByRole('button', { name: 'Explain' }))

    const moduleCard = await screen.findByRole('region', { name: 'Module' })
    const own = within(moduleCard).getByRole('table', { name: 'Module rules for postgres' })
    expect(within(own).queryByText('redis-basic')).not.toBeInTheDocument()
    const staging = within(own).getByText('postgres-staging').closest('tr')!
    expect(within(staging).getByText('env_id: staging ≠ prod').closest('li')).toHaveClass('failed-first')
    expect(within(staging).getByText('resource_class: large ≠ default').closest('li')).not.toHaveClass('failed-first')
    const others = within(moduleCard).getByText('Rules for other resource types (1)').closest('details')!
    expect(others).not.toHaveAttribute('open')
    expect(within(others).getByText('redis-basic')).toBeInTheDocument()
  })

  it('shows the API’s problem when it cannot explain', async () => {
    mockApi({
      ...lists,
      'GET /api/v1/orgs/acme/projects/shop/envs/prod/explain': () =>
        problemResponse(422, 'Unprocessable', 'resource type `postgres` does not exist in this organization'),
    })
    page('viewer')
    const project = await screen.findByLabelText('Project')
    await waitFor(() => expect(project).toBeEnabled())
    await userEvent.selectOptions(project, 'shop')
    const env = screen.getByLabelText('Environment')
    await waitFor(() => expect(env).toBeEnabled())
    await userEvent.selectOptions(env, 'prod')
    await userEvent.selectOptions(screen.getByLabelText('Resource type'), 'postgres')
    await userEvent.type(screen.getByLabelText('Resource id'), 'db')
    await userEvent.click(screen.getByRole('button', { name: 'Explain' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('does not exist in this organization')
  })

  it('shows the problem when the rules cannot be loaded', async () => {
    mockApi({ ...lists, 'GET /api/v1/orgs/acme/module-rules': () => problemResponse(500, 'Internal Server Error', 'database unavailable') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('database unavailable')
  })
})
