import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Problem } from '../api/client'
import { LogViewer, type LogLine } from './LogViewer'

function sse(chunks: string[]): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      chunks.forEach((c) => controller.enqueue(encoder.encode(c)))
      controller.close()
    },
  })
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
}

describe('LogViewer', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('follows the event stream, even when an event is split across chunks, until it ends', async () => {
    const requests: Request[] = []
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      requests.push(new Request(new URL(url, 'http://localhost'), init))
      return sse([
        'event:log\ndata:{"batch":0,"line":0,"message":"Initializing the backend..."}\n\n',
        'event: log\ndata: {"batch":0,"line":1,"level":"error","mess',
        'age":"Error: boom"}\n\n',
        'event: end\ndata: {}\n\n',
      ])
    })
    render(<LogViewer url="/api/v1/orgs/acme/projects/shop/envs/prod/deployments/d/logs?follow=true" label="Logs" />)
    expect(await screen.findByText('2 lines')).toBeInTheDocument()
    const log = screen.getByRole('log', { name: 'Logs' })
    expect(log).toHaveTextContent('Initializing the backend...')
    expect(screen.getByText('Error: boom').closest('.log-line')).toHaveClass('error')
    expect(requests[0].headers.get('Accept')).toBe('text/event-stream')
  })

  it('says whose each line is and narrows the lines to a resource, a level and a text', async () => {
    const line = (node: string, n: number, message: string, level = 'info') =>
      `event: log\ndata: ${JSON.stringify({ node, job_id: node, batch: 0, line: n, level, message } satisfies LogLine)}\n\n`
    vi.stubGlobal('fetch', async () =>
      sse([
        line('thing/default/app.db', 0, 'Initializing the backend...'),
        line('thing/default/app.cache', 0, 'Initializing the backend...'),
        line('thing/default/app.db', 1, 'Error: creating db: quota exceeded', 'error'),
        line('thing/default/app.cache', 1, 'Apply complete! Resources: 1 added'),
        'event: end\ndata: {}\n\n',
      ]),
    )
    render(<LogViewer url="/logs" label="Logs" byResource />)
    expect(await screen.findByText('4 lines')).toBeInTheDocument()
    const log = screen.getByRole('log', { name: 'Logs' })
    const rows = () => [...log.querySelectorAll('.log-line')].map((r) => r.textContent)
    expect(within(log).getAllByText('app.db')).toHaveLength(2)
    expect(within(log).getAllByText('app.cache')).toHaveLength(2)

    await userEvent.selectOptions(screen.getByLabelText('Resource'), 'app.cache')
    expect(rows()).toEqual(['app.cacheInitializing the backend...', 'app.cacheApply complete! Resources: 1 added'])
    expect(screen.getByText('2 of 4 lines')).toBeInTheDocument()

    await userEvent.selectOptions(screen.getByLabelText('Resource'), '')
    await userEvent.selectOptions(screen.getByLabelText('Level'), 'error')
    expect(rows()).toEqual(['app.dbError: creating db: quota exceeded'])

    await userEvent.selectOptions(screen.getByLabelText('Level'), '')
    await userEvent.type(screen.getByLabelText('Search the logs'), 'initializing')
    expect(rows()).toHaveLength(2)
    await userEvent.type(screen.getByLabelText('Search the logs'), ' nothing like this')
    expect(within(log).getByText('No line matches.')).toBeInTheDocument()
  })

  it('shows no resource column nor resource filter for the logs of one resource', async () => {
    vi.stubGlobal('fetch', async () =>
      sse([
        `event: log\ndata: ${JSON.stringify({ node: 'thing/default/app.db', batch: 0, line: 0, message: 'hello' } satisfies LogLine)}\n\n`,
        'event: end\ndata: {}\n\n',
      ]),
    )
    render(<LogViewer url="/logs" label="Logs of app.db" />)
    expect(await screen.findByText('1 line')).toBeInTheDocument()
    expect(screen.queryByLabelText('Resource')).not.toBeInTheDocument()
    expect(screen.getByRole('log').querySelector('.log-resource')).toBeNull()
  })

  it('shows the problem when the stream cannot be opened', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(
          JSON.stringify({ type: 'x', title: 'Not found', status: 404, detail: 'deployment `d` of `shop/prod`' } satisfies Problem),
          {
            status: 404,
            headers: { 'Content-Type': 'application/problem+json' },
          },
        ),
    )
    render(<LogViewer url="/logs" label="Logs" />)
    expect(await screen.findByRole('alert')).toHaveTextContent('deployment `d` of `shop/prod`')
  })
})
