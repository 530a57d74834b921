import { render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LogViewer } from './LogViewer'

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
    expect(screen.getByText('Error: boom')).toHaveClass('error')
    expect(requests[0].headers.get('Accept')).toBe('text/event-stream')
  })

  it('shows the problem when the stream cannot be opened', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ type: 'x', title: 'Not found', status: 404, detail: 'deployment `d` of `shop/prod`' }),
      { status: 404, headers: { 'Content-Type': 'application/problem+json' } }))
    render(<LogViewer url="/logs" label="Logs" />)
    expect(await screen.findByRole('alert')).toHaveTextContent('deployment `d` of `shop/prod`')
  })
})
