import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from './schema'

export type Schemas = components['schemas']
export type Problem = Schemas['Problem']
export type Role = Schemas['Role']

/** An answer of the API that was not a success, with its RFC 9457 problem details. */
export class ApiError extends Error {
  readonly problem: Problem

  constructor(problem: Problem) {
    super(problem.detail ?? problem.title)
    this.name = 'ApiError'
    this.problem = problem
  }

  get status(): number {
    return this.problem.status
  }
}

type TokenSource = () => Promise<string | null>
let tokenSource: TokenSource = async () => null
let onUnauthenticated: () => void = () => {}

/** Where requests get their bearer token from, and what to do when the API says it is no longer valid. */
export function configureAuth(source: TokenSource, unauthenticated: () => void) {
  tokenSource = source
  onUnauthenticated = unauthenticated
}

export async function authorizationHeader(): Promise<Record<string, string>> {
  const token = await tokenSource()
  return token ? { Authorization: `Bearer ${token}` } : {}
}

const auth: Middleware = {
  async onRequest({ request }) {
    const token = await tokenSource()
    if (token) request.headers.set('Authorization', `Bearer ${token}`)
    return request
  },
  async onResponse({ response, request }) {
    if (response.status === 401 && request.headers.has('Authorization')) onUnauthenticated()
    return response
  },
}

// fetch is looked up at call time, so tests can replace it
export const api = createClient<paths>({ baseUrl: window.location.origin, fetch: (request) => globalThis.fetch(request) })
api.use(auth)

/** Turns anything a failed request produced into a problem a person can read. */
export async function toProblem(response: Response | undefined, body: unknown): Promise<Problem> {
  if (body && typeof body === 'object' && 'title' in body && 'status' in body) return body as Problem
  const status = response?.status ?? 0
  if (!response) {
    const reason = body instanceof Error ? ` (${body.message})` : ''
    return {
      type: 'about:blank',
      title: 'Polystack cannot be reached',
      status: 0,
      detail: `Check your network connection and that the server is running${reason}.`,
    }
  }
  // not problem details (a proxy in between, or a page instead of JSON): what the answer itself says
  const text = typeof body === 'string' && body.length > 0 && body.length < 500 && !/^\s*</.test(body) ? body : undefined
  return {
    type: 'about:blank',
    title: response.statusText || `HTTP ${status}`,
    status,
    detail: text ?? `The server answered ${status} without saying why.`,
    request_id: response.headers.get('X-Request-Id') ?? undefined,
  }
}

/** The data of a successful answer, or an {@link ApiError}. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response }
  try {
    result = await call
  } catch (e) {
    throw new ApiError(await toProblem(undefined, e))
  }
  if (result.error !== undefined || !result.response.ok) {
    throw new ApiError(await toProblem(result.response, result.error))
  }
  return result.data as T
}

/** Sends a manifest (YAML or JSON text) as it is. */
export function manifestBody(content: string) {
  const trimmed = content.trimStart()
  const type = trimmed.startsWith('{') ? 'application/json' : 'application/yaml'
  return { body: content as never, bodySerializer: (b: unknown) => b as string, headers: { 'Content-Type': type } }
}
