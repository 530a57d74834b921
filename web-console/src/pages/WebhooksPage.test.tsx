import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { WebhooksPage } from './WebhooksPage'

const hook: Schemas['Webhook'] = {
  id: '31111111-2222-4333-8444-555555555555',
  url: 'https://hooks.example.com/polystack',
  events: ['deployment.failed', 'issue.opened'],
  created_at: '2026-12-02T01:00:00Z',
  created_by: 'pat',
}

const page = () =>
  renderPage(<WebhooksPage />, { url: '/orgs/acme/webhooks', path: '/orgs/:org/webhooks', session: fakeSession('platform-engineer') })

describe('WebhooksPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows each webhook with its delivery log', async () => {
    mockApi({
      'GET /api/v1/orgs/acme/webhooks': (): Schemas['PageWebhookView'] => ({ items: [hook] }),
      'GET /api/v1/orgs/acme/webhooks/[^/]+/deliveries': (): Schemas['PageWebhookDeliveryView'] => ({
        items: [
          {
            id: 'd2',
            event_type: 'issue.opened',
            subject: 'issue:i1',
            status: 'pending',
            attempts: 2,
            last_status_code: 503,
            last_error: 'answered 503',
            created_at: '2026-12-02T01:05:00Z',
            next_attempt_at: '2026-12-02T01:06:00Z',
          },
          {
            id: 'd1',
            event_type: 'ping',
            subject: 'subscription:x',
            status: 'delivered',
            attempts: 1,
            last_status_code: 204,
            created_at: '2026-12-02T01:00:01Z',
            delivered_at: '2026-12-02T01:00:02Z',
          },
        ],
      }),
    })
    page()
    const row = (await screen.findByText('https://hooks.example.com/polystack')).closest('tr')!
    expect(within(row).getByText('issue.opened')).toBeInTheDocument()
    fireEvent.click(within(row).getByRole('button', { name: 'Deliveries' }))
    const log = await screen.findByRole('table', { name: 'Deliveries to https://hooks.example.com/polystack' })
    const retrying = within(log).getByText('issue:i1').closest('tr')!
    expect(within(retrying).getByText('pending')).toHaveClass('badge', 'wait')
    expect(within(retrying).getByText('answered 503')).toBeInTheDocument()
    expect(within(log).getByText('delivered')).toHaveClass('badge', 'ok')
  })

  it('adds a webhook, shows its secret once, and marks a refused address at its field', async () => {
    let refuse = true
    const api = mockApi({
      'GET /api/v1/orgs/acme/webhooks': (): Schemas['PageWebhookView'] => ({ items: [] }),
      'POST /api/v1/orgs/acme/webhooks': () => {
        if (refuse) {
          refuse = false
          return problemResponse(400, 'Bad request', 'url: host `intranet` is 10.0.0.7, a private address', [
            { pointer: '/url', detail: 'host `intranet` is 10.0.0.7, a private address' },
          ])
        }
        return { ...hook, secret: 'whsec_c2VjcmV0LXNob3duLW9uY2U=' } satisfies Schemas['Webhook']
      },
    })
    page()
    fireEvent.click(await screen.findByRole('button', { name: 'Add webhook' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a webhook' })
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'http://intranet/hook' } })
    fireEvent.click(within(dialog).getByLabelText(/deployment.succeeded/))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add webhook' }))
    expect(await within(dialog).findByText('host `intranet` is 10.0.0.7, a private address')).toBeInTheDocument()
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'https://hooks.example.com/polystack' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add webhook' }))
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_c2VjcmV0LXNob3duLW9uY2U=')
    expect(api.bodies).toEqual([
      { url: 'http://intranet/hook', events: ['deployment.failed', 'issue.opened', 'deployment.succeeded'] },
      { url: 'https://hooks.example.com/polystack', events: ['deployment.failed', 'issue.opened', 'deployment.succeeded'] },
    ])
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).not.toBeInTheDocument())
  })
})
