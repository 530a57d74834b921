import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeSession, mockApi, renderPage } from '../test/render'
import { Layout } from './Layout'

const layout = (role: Parameters<typeof fakeSession>[0]) =>
  renderPage(<Layout />, { url: '/orgs/acme/members', path: '/orgs/:org/members', session: fakeSession(role) })

const administer = () => {
  const section = screen.getByRole('heading', { name: 'Administer' }).closest('div')!
  return within(section)
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')])
}

describe('Layout', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('links members, service users and group mappings apart, in that order', () => {
    mockApi({})
    layout('owner')
    expect(administer().slice(0, 4)).toEqual([
      ['Members', '/orgs/acme/members'],
      ['Service users', '/orgs/acme/service-users'],
      ['Group mappings', '/orgs/acme/group-mappings'],
      ['Quotas', '/orgs/acme/quotas'],
    ])
  })

  it('links the group mappings for owners only', () => {
    mockApi({})
    layout('platform-engineer')
    expect(administer().map(([name]) => name)).toEqual(['Members', 'Service users', 'Quotas', 'Webhooks', 'Audit log'])
  })
})
