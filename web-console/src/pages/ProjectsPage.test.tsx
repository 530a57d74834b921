import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, renderPage } from '../test/render'
import { ProjectsPage } from './ProjectsPage'

const page = (role: Parameters<typeof fakeSession>[0] = 'owner') =>
  renderPage(<ProjectsPage />, { url: '/orgs/acme/projects', path: '/orgs/:org/projects', session: fakeSession(role) })

/** An organization with some of its configuration: the lists named are answered with one item. */
function organization(has: string[], extra: Record<string, () => unknown> = {}) {
  const list =
    <T,>(name: string, item: T) =>
    (): { items: T[] } =>
      has.includes(name) ? { items: [item] } : { items: [] }
  return mockApi({
    'GET /api/v1/orgs/acme/env-types': list<Schemas['EnvTypeView']>('env-types', { id: 'production' }),
    'GET /api/v1/orgs/acme/resource-types': list<Schemas['ResourceTypeView']>('resource-types', { id: 'postgres' }),
    'GET /api/v1/orgs/acme/modules': list<Schemas['ModuleView']>('modules', { id: 'pg', resource_type: 'postgres' }),
    'GET /api/v1/orgs/acme/module-rules': list<Schemas['ModuleRuleView']>('module-rules', { id: 'r1', module_id: 'pg' }),
    'GET /api/v1/orgs/acme/runners': list<Schemas['RunnerView']>('runners', { id: 'eu-agent', status: 'idle' }),
    'GET /api/v1/orgs/acme/runner-rules': list<Schemas['RunnerRuleView']>('runner-rules', { id: 'rr1', runner_id: 'eu-agent' }),
    'GET /api/v1/orgs/acme/projects': list<Schemas['ProjectView']>('projects', { id: 'shop', name: 'Shop' }),
    'GET /api/v1/orgs/acme/projects/shop/envs': list<Schemas['EnvironmentView']>('envs', {
      id: 'prod',
      env_type_id: 'production',
      status: 'active',
    }),
    'GET /api/v1/orgs/acme/projects/shop/envs/prod/deployments': list<Schemas['DeploymentView']>('deployments', {
      id: 'd1',
      status: 'succeeded',
    }),
    ...extra,
  })
}

describe('ProjectsPage first steps', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows a new organization every step in order, none done, the first one next', async () => {
    organization([])
    page()
    const steps = within(await screen.findByRole('region', { name: 'First steps' })).getAllByRole('listitem')
    expect(steps.map((s) => s.textContent)).toEqual([
      expect.stringContaining('Create an environment type'),
      expect.stringContaining('Define a resource type'),
      expect.stringContaining('Add a module'),
      expect.stringContaining('Add a module rule'),
      expect.stringContaining('Register a runner'),
      expect.stringContaining('Add a runner rule'),
      expect.stringContaining('Create a project and an environment'),
      expect.stringContaining('Submit a manifest and deploy'),
    ])
    expect(steps.every((s) => s.textContent!.includes('To do:'))).toBe(true)
    expect(steps[0]).toHaveAttribute('aria-current', 'step')
    expect(within(steps[0]).getByRole('link', { name: 'Create an environment type' })).toHaveAttribute('href', '/orgs/acme/env-types')
    expect(screen.getByText(/0 of 8 done/)).toBeInTheDocument()
  })

  it('marks each step done once its object exists and points at the next one', async () => {
    organization(['env-types', 'resource-types', 'modules', 'module-rules', 'projects', 'envs'])
    page('developer')
    const region = await screen.findByRole('region', { name: 'First steps' })
    const steps = within(region).getAllByRole('listitem')
    expect(steps.slice(0, 4).every((s) => s.textContent!.includes('Done:'))).toBe(true)
    expect(steps[4]).toHaveAttribute('aria-current', 'step')
    expect(steps[4]).toHaveTextContent('To do: Register a runner')
    expect(steps[6]).toHaveTextContent('Done: Create a project and an environment')
    expect(within(steps[7]).getByRole('link')).toHaveAttribute('href', '/orgs/acme/projects/shop/envs/prod')
    expect(region).toHaveTextContent('5 of 8 done')
    expect(region).toHaveTextContent('The first six are for a platform engineer')
  })

  it('is gone once the organization has runners, modules and environments', async () => {
    organization(['env-types', 'resource-types', 'modules', 'module-rules', 'runners', 'runner-rules', 'projects', 'envs'])
    page()
    expect(await screen.findByRole('link', { name: 'prod' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'First steps' })).not.toBeInTheDocument()
  })

  it('says nothing when a list cannot be read, rather than a wrong checklist', async () => {
    const api = organization([], { 'GET /api/v1/orgs/acme/runners': () => new Response('', { status: 500 }) })
    page()
    expect(await screen.findByText(/No projects yet/)).toBeInTheDocument()
    await waitFor(() => expect(api.calls.some((c) => c.startsWith('GET /api/v1/orgs/acme/runners'))).toBe(true))
    await new Promise((settled) => setTimeout(settled, 100))
    expect(screen.queryByRole('region', { name: 'First steps' })).not.toBeInTheDocument()
  })
})
