import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Route, Routes, useLocation } from 'react-router'
import type { Problem, Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { ManifestTab } from './ManifestTab'

const BASE = '/api/v1/orgs/acme/projects/shop/envs/prod'
const STORED = 'shared:\n  a: { type: thing }\n'

function Where() {
  return <div data-testid="location">{useLocation().pathname}</div>
}

function page(editable = true) {
  return renderPage(
    <Routes>
      <Route index element={<ManifestTab org="acme" project="shop" env="prod" editable={editable} />} />
      <Route path="deployments/:id" element={<Where />} />
    </Routes>,
    { url: '/orgs/acme/projects/shop/envs/prod', path: '/orgs/:org/projects/:project/envs/:env/*', session: fakeSession('developer') },
  )
}

function storedManifest() {
  return {
    [`GET ${BASE}/manifests`]: (): Schemas['PageManifestView'] => ({ items: [{ version: 3 }] }),
    [`GET ${BASE}/manifests/3`]: (): Schemas['ManifestView'] => ({
      version: 3,
      format: 'yaml',
      content: STORED,
      created_by: 'pat',
      created_at: '2026-01-01T00:00:00Z',
    }),
  }
}

describe('ManifestTab', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows the dry-run diff of the text in the editor without storing it', async () => {
    const api = mockApi({
      ...storedManifest(),
      [`POST ${BASE}/manifest/dry-run`]: (): Schemas['DryRunView'] => ({
        nodes: [
          {
            key: 'thing/default/shared.a',
            type: 'thing',
            class: 'default',
            id: 'shared.a',
            change: 'unchanged',
            module_id: 'm',
            module_version: 1,
            runner_id: 'r1',
          },
          {
            key: 'thing/default/shared.b',
            type: 'thing',
            class: 'default',
            id: 'shared.b',
            change: 'added',
            module_id: 'm',
            module_version: 2,
            runner_id: 'r1',
          },
          {
            key: 'thing/default/shared.c',
            type: 'thing',
            class: 'default',
            id: 'shared.c',
            change: 'definition_changed',
            reasons: ['providers', 'schema'],
            module_id: 'm',
            module_version: 1,
            runner_id: 'r1',
          },
        ],
        edges: [],
        layers: [],
        summary: { add: 1, change: 1, destroy: 0, unchanged: 1 },
      }),
    })
    page()
    expect(await screen.findByText(/Version 3, submitted/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Dry-run' }))
    expect(await screen.findByText('1 to add')).toBeInTheDocument()
    expect(screen.getByText('shared.b')).toBeInTheDocument()
    expect(screen.getByText('added')).toBeInTheDocument()
    // why a resource changes
    expect(screen.getByText(/providers, schema/)).toBeInTheDocument()
    expect(api.calls.filter((c) => c.startsWith('PUT'))).toEqual([])
    expect(api.bodies).toEqual([STORED])
  })

  it('shows each error of a bad manifest at its line', async () => {
    mockApi({
      ...storedManifest(),
      [`POST ${BASE}/manifest/dry-run`]: () =>
        problemResponse(422, 'The manifest does not fit this organization', '1 problem', [
          { path: 'shared.a.type', line: 2, detail: 'resource type `thing` does not exist' },
        ]),
    })
    const { container } = page()
    await screen.findByText(/Version 3/)
    await userEvent.click(screen.getByRole('button', { name: 'Dry-run' }))
    expect(await screen.findByText(/resource type `thing` does not exist/)).toBeInTheDocument()
    expect(screen.getByText('(line 2)')).toBeInTheDocument()
    // the editor marks the line itself
    await waitFor(() => expect(container.querySelector('.cm-lint-marker-error')).not.toBeNull())
  })

  it('shows a dry-run that hit a server error with its title, request id and what to do', async () => {
    mockApi({
      ...storedManifest(),
      [`POST ${BASE}/manifest/dry-run`]: () =>
        new Response(
          JSON.stringify({
            type: 'https://polystack.dev/problems/internal',
            title: 'Internal error',
            status: 500,
            detail: 'An unexpected error occurred',
            request_id: 'req-dry-1',
          } satisfies Problem),
          { status: 500, headers: { 'Content-Type': 'application/problem+json' } },
        ),
    })
    page()
    await screen.findByText(/Version 3/)
    await userEvent.click(screen.getByRole('button', { name: 'Dry-run' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Internal error')
    expect(alert).toHaveTextContent('Request id req-dry-1')
    expect(alert).toHaveTextContent(/try again in a moment/i)
  })

  it('deploys the stored version without storing it again, and opens the deployment', async () => {
    const api = mockApi({
      ...storedManifest(),
      [`POST ${BASE}/deployments`]: () =>
        new Response(JSON.stringify({ id: 'd-1', status: 'queued' } satisfies Schemas['DeploymentView']), {
          status: 201,
          headers: { 'Content-Type': 'application/json' },
        }),
    })
    page()
    await screen.findByText(/Version 3/)
    await userEvent.click(screen.getByRole('button', { name: 'Deploy' }))
    expect(await screen.findByTestId('location')).toHaveTextContent('/orgs/acme/projects/shop/envs/prod/deployments/d-1')
    expect(api.calls.some((c) => c.startsWith('PUT'))).toBe(false)
    expect(api.bodies).toEqual([{ mode: 'deploy', manifest_version: 3 }])
  })

  it('is read-only for viewers', async () => {
    mockApi(storedManifest())
    page(false)
    await screen.findByText(/Version 3/)
    expect(screen.queryByRole('button', { name: 'Deploy' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Dry-run' })).not.toBeInTheDocument()
  })
})
