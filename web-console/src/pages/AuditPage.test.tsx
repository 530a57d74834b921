import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, problemResponse, renderPage } from '../test/render'
import { AuditPage, toInstant } from './AuditPage'

const page = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<AuditPage />, { url: '/orgs/acme/audit', path: '/orgs/:org/audit', session: fakeSession(role) })

type AuditEvent = Schemas['AuditEventView']

const event = (n: number, overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  occurred_at: '2026-03-01T12:00:00Z',
  actor: 'pat',
  actor_kind: 'user',
  action: `createProject${n}`,
  method: 'POST',
  target: `/api/v1/orgs/acme/projects/p${n}`,
  request_id: `req-${n}`,
  status: 201,
  outcome: 'success',
  ...overrides,
})

describe('AuditPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('lists events with their outcome in words', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/audit-events': (): Schemas['PageAuditEventView'] => ({
        items: [event(1), event(2, { actor: 'ci', actor_kind: 'service', status: 403, outcome: 'failure', method: 'DELETE' })],
      }),
    })
    page('platform-engineer')
    expect(await screen.findByText('createProject1')).toBeInTheDocument()
    const refused = screen.getByText('createProject2').closest('tr')!
    expect(within(refused).getByText('failure')).toHaveClass('badge', 'bad')
    expect(within(refused).getByText('service')).toBeInTheDocument()
    expect(within(refused).getByText('DELETE')).toBeInTheDocument()
    expect(within(refused).getByText('req-2')).toBeInTheDocument()
    expect(screen.getByText('success')).toHaveClass('badge', 'ok')
    expect(api.calls).toEqual(['GET /api/v1/orgs/acme/audit-events?limit=50'])
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('loads the next page with the page token', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/audit-events': (request): Schemas['PageAuditEventView'] =>
        new URL(request.url).searchParams.get('page_token') === 'next-1'
          ? { items: [event(51)] }
          : { items: Array.from({ length: 50 }, (_, i) => event(i + 1)), next_page_token: 'next-1' },
    })
    page('owner')
    expect(await screen.findByText('createProject50')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await screen.findByText('createProject51')).toBeInTheDocument()
    expect(screen.getByText('createProject1')).toBeInTheDocument()
    expect(api.calls).toContain('GET /api/v1/orgs/acme/audit-events?limit=50&page_token=next-1')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('applies filters on submit, with times as instants', async () => {
    const api = mockApi({ 'GET /api/v1/orgs/acme/audit-events': () => ({ items: [] }) satisfies Schemas['PageAuditEventView'] })
    page('owner')
    expect(await screen.findByText(/Nothing has been changed/)).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Actor'), 'ci')
    await userEvent.type(screen.getByLabelText('Target'), '/api/v1/orgs/acme/projects')
    await userEvent.type(screen.getByLabelText('From'), '2026-03-01T08:30')
    expect(api.calls).toHaveLength(1)
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }))
    const from = toInstant('2026-03-01T08:30')!
    const expected = `GET /api/v1/orgs/acme/audit-events?limit=50&actor=ci&target=${encodeURIComponent('/api/v1/orgs/acme/projects')}&from=${encodeURIComponent(from)}`
    await waitFor(() => expect(api.calls.map(decodeURIComponent)).toContain(decodeURIComponent(expected)))
    expect(await screen.findByText(/No events match these filters/)).toBeInTheDocument()
    expect(from).toBe(new Date(2026, 2, 1, 8, 30).toISOString())
  })

  it('shows the API’s refusal to developers', async () => {
    mockApi({
      'GET /api/v1/orgs/acme/audit-events': () => problemResponse(403, 'Forbidden', 'this needs the platform-engineer role in `acme`'),
    })
    page('developer')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('this needs the platform-engineer role in `acme`')
    expect(alert).toHaveTextContent('Your role in this organization does not allow this')
  })
})
