import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { EditorView } from '@codemirror/view'
import type { ReactElement } from 'react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { vi } from 'vitest'
import type { Problem, Role, Schemas } from '../api/client'
import { SessionContext, type Me, type Session } from '../auth/session'

/** A signed-in session for component tests. */
export function fakeSession(role: Role | null, org = 'acme', overrides: Partial<Me> = {}): Session {
  const me: Me = { name: 'pat', service_user: false, instance_admin: false, memberships: role ? [{ org, role }] : [], ...overrides }
  return {
    status: 'signed-in',
    me,
    method: 'token',
    config: { api_tokens: true },
    signInWithToken: vi.fn(async () => true),
    signInWithOidc: vi.fn(async () => {}),
    completeOidcSignIn: vi.fn(async () => {}),
    signOut: vi.fn(async () => {}),
    refreshMe: vi.fn(async () => {}),
  }
}

/**
 * Renders a page at a URL (below /console) inside the app's providers.
 * `path` is the route pattern, e.g. /orgs/:org/env-types.
 */
export function renderPage(element: ReactElement, { url, path, session }: { url: string; path: string; session: Session }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <SessionContext.Provider value={session}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path={path} element={element} />
          </Routes>
        </MemoryRouter>
      </SessionContext.Provider>
    </QueryClientProvider>,
  )
}

type Handler = (request: Request, match: RegExpMatchArray) => unknown | Promise<unknown>

export interface MockApi {
  /** Every request made, as "METHOD /path?query". */
  calls: string[]
  /** Bodies of the requests, in order, parsed as JSON when they are JSON. */
  bodies: unknown[]
}

/**
 * Replaces fetch with handlers keyed by "METHOD /path-regex". A handler returns a body (answered 200
 * as JSON), or a Response. Unmatched requests answer a 404 problem and are recorded.
 */
export function mockApi(handlers: Record<string, Handler>): MockApi {
  const state: MockApi = { calls: [], bodies: [] }
  const compiled = Object.entries(handlers).map(([key, handler]) => {
    const [method, pattern] = key.split(' ')
    return { method, regex: new RegExp(`^${pattern}$`), handler }
  })
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)
    const url = new URL(request.url, 'http://localhost')
    state.calls.push(`${request.method} ${url.pathname}${url.search}`)
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text()
    if (text) {
      try {
        state.bodies.push(JSON.parse(text))
      } catch {
        state.bodies.push(text)
      }
    }
    for (const { method, regex, handler } of compiled) {
      const match = url.pathname.match(regex)
      if (method === request.method && match) {
        const result = await handler(request, match)
        if (result instanceof Response) return result
        return new Response(JSON.stringify(result ?? {}), { status: 200, headers: { 'Content-Type': 'application/json' } })
      }
    }
    return problemResponse(404, 'Not found', `no mock for ${request.method} ${url.pathname}`)
  })
  return state
}

/** An answer with problem details, as the API gives them. */
export function problemResponse(status: number, title: string, detail?: string, errors?: Schemas['ProblemFieldError'][]): Response {
  const problem: Problem = { type: 'about:blank', title, status, detail, errors }
  return new Response(JSON.stringify(problem), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  })
}

/** Replaces the text of the code editor labelled `label`, as typing would. */
export function setEditor(label: string, text: string) {
  const view = EditorView.findFromDOM(screen.getByTestId(`editor-${label}`).querySelector<HTMLElement>('.cm-editor')!)!
  act(() => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } })
  })
}
