import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ApiError, toProblem } from '../api/client'
import { ProblemMessage } from './ProblemMessage'

const shown = async (response: Response) => {
  const text = await response.clone().text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    /* not JSON: kept as text */
  }
  render(<ProblemMessage error={new ApiError(await toProblem(response, body))} />)
  return screen.getByRole('alert')
}

describe('ProblemMessage', () => {
  it('shows a server error that came without problem details with its request id and what to do', async () => {
    const alert = await shown(
      new Response('<html><body>upstream failed</body></html>', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'Content-Type': 'text/html', 'X-Request-Id': 'req-7f3a' },
      }),
    )
    expect(alert).toHaveTextContent('Bad Gateway')
    expect(alert).toHaveTextContent('Request id req-7f3a')
    expect(alert).toHaveTextContent(/try again.*request id/i)
    expect(alert).not.toHaveTextContent('<html>')
  })

  it('never shows a bare internal error: the problem, its request id and what to do', async () => {
    const alert = await shown(
      new Response(
        JSON.stringify({
          type: 'https://polystack.dev/problems/internal',
          title: 'Internal error',
          status: 500,
          detail: 'An unexpected error occurred; quote the request id when you report it',
          request_id: 'req-1',
        }),
        { status: 500, headers: { 'Content-Type': 'application/problem+json' } },
      ),
    )
    expect(alert).toHaveTextContent('Internal error')
    expect(alert).toHaveTextContent('quote the request id when you report it')
    expect(alert).toHaveTextContent('Request id req-1')
    expect(alert).toHaveTextContent(/try again.*request id/i)
  })

  it('lists every field error with its manifest line', async () => {
    const alert = await shown(
      new Response(
        JSON.stringify({
          type: 'https://polystack.dev/problems/validation',
          title: 'Invalid manifest',
          status: 400,
          request_id: 'req-2',
          errors: [
            { path: 'workloads.app.resources.db.type', detail: 'unknown resource type `postgress`', line: 4 },
            { pointer: '/mode', detail: 'must be deploy, plan or destroy' },
          ],
        }),
        { status: 400, headers: { 'Content-Type': 'application/problem+json' } },
      ),
    )
    expect(alert).toHaveTextContent('workloads.app.resources.db.type unknown resource type `postgress` (line 4)')
    expect(alert).toHaveTextContent('/mode must be deploy, plan or destroy')
    expect(alert).toHaveTextContent('Request id req-2')
  })
})
