import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '../api/client'
import { fakeSession, mockApi, renderPage } from '../test/render'
import { QuotasPage } from './QuotasPage'

const page = (admin: boolean) =>
  renderPage(<QuotasPage />, {
    url: '/orgs/acme/quotas',
    path: '/orgs/:org/quotas',
    session: fakeSession('viewer', 'acme', { instance_admin: admin }),
  })

const quotas: Schemas['QuotasView'] = {
  items: [
    { name: 'projects', scope: 'organization', description: 'projects in the organization', hard: 5, used: 5, default: false },
    { name: 'runners', scope: 'organization', description: 'runners registered in the organization', hard: 50, used: 3, default: true },
  ],
}

describe('QuotasPage', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows each quota with its usage, and a used-up one stands out', async () => {
    mockApi({ 'GET /api/v1/orgs/acme/quotas': () => quotas })
    page(false)
    const projects = (await screen.findByText('Projects')).closest('tr')!
    expect(within(projects).getByText('5 of 5')).toHaveClass('badge', 'bad')
    const runners = screen.getByText('Runners').closest('tr')!
    expect(within(runners).getByText('3 of 50')).toHaveClass('badge', 'calm')
    expect(within(runners).getByText('(default)')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Change quotas' })).not.toBeInTheDocument()
  })

  it('lets an instance administrator change them, an empty field going back to the default', async () => {
    const api = mockApi({
      'GET /api/v1/orgs/acme/quotas': () => quotas,
      'PUT /api/v1/orgs/acme/quotas': () => quotas,
    })
    page(true)
    await userEvent.click(await screen.findByRole('button', { name: 'Change quotas' }))
    const projects = screen.getByLabelText('Projects')
    await userEvent.clear(projects)
    await userEvent.type(projects, '8')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await vi.waitFor(() => expect(api.calls).toContain('PUT /api/v1/orgs/acme/quotas'))
    expect(api.bodies).toEqual([{ projects: 8 }])
  })
})
