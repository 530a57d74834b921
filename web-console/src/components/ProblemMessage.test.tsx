import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ApiError, toProblem, type Problem, type Schemas } from '../api/client'
import { FormProblem, ProblemMessage, problemsByField } from './ProblemMessage'

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
        } satisfies Problem),
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
        } satisfies Problem),
        { status: 400, headers: { 'Content-Type': 'application/problem+json' } },
      ),
    )
    expect(alert).toHaveTextContent('workloads.app.resources.db.type unknown resource type `postgress` (line 4)')
    expect(alert).toHaveTextContent('/mode must be deploy, plan or destroy')
    expect(alert).toHaveTextContent('Request id req-2')
  })
})

const invalid = (...errors: Schemas['ProblemFieldError'][]) =>
  new ApiError({ type: 'about:blank', title: 'The request is not valid', status: 400, errors })

describe('problemsByField', () => {
  it('gives each top-level field its errors, with the rest of the pointer', () => {
    const error = invalid(
      { pointer: '/id', detail: 'must be lowercase' },
      { pointer: 'id', detail: 'is too long' },
      { pointer: '/output_schema/properties/port/type', detail: 'must be a JSON Schema type' },
      { pointer: '/name' },
    )
    expect(problemsByField(error)).toEqual({
      id: 'must be lowercase; is too long',
      output_schema: 'properties/port/type: must be a JSON Schema type',
      name: 'is not valid',
    })
  })

  it('gives the fields of an object with under, and nothing for errors that are not API problems', () => {
    const error = invalid({ pointer: '/approval/required', detail: 'must be at least 1' }, { pointer: '/id', detail: 'taken' })
    expect(problemsByField(error, 'approval')).toEqual({ required: 'must be at least 1' })
    expect(problemsByField(new Error('network'))).toEqual({})
    expect(problemsByField(null)).toEqual({})
  })
})

describe('FormProblem', () => {
  it('shows nothing when every error is shown at a field of the form', () => {
    const { container } = render(<FormProblem error={invalid({ pointer: '/approval/required', detail: 'x' })} fields={['approval']} />)
    expect(container).toBeEmptyDOMElement()
  })

  it('shows the problem when an error concerns no field of the form, or it has no field errors', () => {
    render(<FormProblem error={invalid({ pointer: '/id', detail: 'x' }, { pointer: '/version', detail: 'is stale' })} fields={['id']} />)
    expect(screen.getByRole('alert')).toHaveTextContent('is stale')
  })

  it('shows an error that is no API problem', () => {
    render(<FormProblem error={new Error('the network is down')} fields={['id']} />)
    expect(screen.getByRole('alert')).toHaveTextContent('the network is down')
  })
})
