import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { RunnersPage } from './RunnersPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<RunnersPage />, { url: '/orgs/acme/runners', path: '/orgs/:org/runners', session: fakeSession(role) })

const KEY = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAexample\n-----END PUBLIC KEY-----'
const runners: Schemas['RunnerView'][] = [
  {
    id: 'eu-agent',
    description: 'Frankfurt',
    status: 'busy',
    max_concurrent_jobs: 4,
    labels: { region: 'eu' },
    last_seen_at: new Date().toISOString(),
    public_key: KEY,
    version: 7,
    current_jobs: [
      {
        job_id: 'j-1',
        deployment_id: 'd-1',
        project: 'shop',
        env: 'prod',
        resource: 'postgres/default/app.db',
        attempt: 1,
        claimed_at: new Date().toISOString(),
      },
    ],
  },
  { id: 'us-agent', status: 'offline', max_concurrent_jobs: 1, labels: {}, public_key: KEY, version: 1 },
]

describe('RunnersPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists runners with status, capacity and labels, read-only for developers', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/runners': (): Schemas['PageRunnerView'] => ({ items: runners }) })
    page('developer')
    expect(await screen.findByText('eu-agent')).toBeInTheDocument()
    expect(screen.getByText('Frankfurt')).toBeInTheDocument()
    expect(screen.getByText('busy')).toHaveClass('badge')
    expect(screen.getByText('offline')).toBeInTheDocument()
    expect(screen.getByText('region=eu')).toBeInTheDocument()
    expect(screen.getByText('1 of 4')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'shop/prod: app.db' })).toHaveAttribute(
      'href',
      '/orgs/acme/projects/shop/envs/prod/deployments/d-1',
    )
    expect(screen.getByText('0 of 1')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Register a runner' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
  })

  it('shows an empty state', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/runners': (): Schemas['PageRunnerView'] => ({ items: [] }) })
    page('platform-engineer')
    expect(await screen.findByText(/No runners yet/)).toBeInTheDocument()
  })

  it('shows the problem when the list cannot be loaded', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/runners': () => problemResponse(500, 'Internal error', 'it broke') })
    page('viewer')
    expect(await screen.findByRole('alert')).toHaveTextContent('it broke')
  })

  it('registers a runner step by step and shows the command that starts its agent', async () => {
    let attempts = 0
    const api = mockApi({
      'GET /api/v1/orgs/acme/runners': (): Schemas['PageRunnerView'] => ({ items: [] }),
      'POST /api/v1/orgs/acme/runners': () =>
        ++attempts === 1
          ? problemResponse(400, 'The request is not valid', '1 problem', [
              { pointer: '/public_key', detail: 'is not an Ed25519 public key in PEM' },
            ])
          : ({ ...runners[0], id: 'lab' } satisfies Schemas['RunnerView']),
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'Register a runner' }))
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByText('java -jar runner-agent.jar keygen --key-file=runner.key')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Id'), 'lab')
    const start = `java -jar runner-agent.jar --url=${window.location.origin} --org=acme --runner=lab --key-file=runner.key`
    expect(within(dialog).getByText(start)).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Lab machine')
    await userEvent.type(within(dialog).getByLabelText('Public key'), 'not a key')
    await userEvent.clear(within(dialog).getByLabelText('Max concurrent jobs'))
    await userEvent.type(within(dialog).getByLabelText('Max concurrent jobs'), '2')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add label' }))
    await userEvent.type(within(dialog).getByLabelText('Label key 1'), 'region')
    await userEvent.type(within(dialog).getByLabelText('Label value 1'), 'lab')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register runner' }))
    expect(await within(dialog).findByText('is not an Ed25519 public key in PEM')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('Public key')).toHaveAttribute('aria-invalid', 'true')

    await userEvent.clear(within(dialog).getByLabelText('Public key'))
    await userEvent.click(within(dialog).getByLabelText('Public key'))
    await userEvent.paste(KEY)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register runner' }))
    expect(await screen.findByRole('heading', { name: 'Runner “lab” is registered' })).toBeInTheDocument()
    expect(screen.getByText(start)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Copy start command' })).toBeInTheDocument()
    expect(api.bodies[1]).toEqual({
      id: 'lab',
      description: 'Lab machine',
      public_key: KEY,
      max_concurrent_jobs: 2,
      labels: { region: 'lab' },
    })
    await userEvent.click(screen.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('edits a runner with the version it read', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/runners': (): Schemas['PageRunnerView'] => ({ items: runners }),
      'PUT /api/v1/orgs/acme/runners/eu-agent': () => runners[0],
    })
    page('platform-engineer')
    await userEvent.click(await screen.findByRole('button', { name: 'Edit eu-agent' }))
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByLabelText('Id')).toBeDisabled()
    expect(within(dialog).getByLabelText('Public key')).toHaveValue(KEY)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove region' }))
    await userEvent.clear(within(dialog).getByLabelText('Max concurrent jobs'))
    await userEvent.type(within(dialog).getByLabelText('Max concurrent jobs'), '8')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(api.bodies).toEqual([
        {
          description: 'Frankfurt',
          public_key: KEY,
          max_concurrent_jobs: 8,
          labels: {},
          version: 7,
        },
      ]),
    )
  })
})
