import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/client'
import { manifestProblems } from './problems'

describe('manifestProblems', () => {
  it('puts each error at its manifest line with its path', () => {
    const error = new ApiError({
      type: 'x',
      title: 'The manifest does not fit this organization',
      status: 422,
      errors: [
        { path: 'workloads.app.resources.b.type', line: 7, detail: 'resource type `nothing` does not exist' },
        { path: 'workloads.app.resources.a', detail: 'no module rule matches' },
      ],
    })
    expect(manifestProblems(error)).toEqual([
      { line: 7, message: 'workloads.app.resources.b.type: resource type `nothing` does not exist' },
      { line: 1, message: 'workloads.app.resources.a: no module rule matches' },
    ])
  })

  it('shows a problem without field errors on the first line, and nothing for other failures', () => {
    expect(manifestProblems(new ApiError({ type: 'x', title: 'Bad', status: 400, detail: 'the manifest is empty' }))).toEqual([
      { line: 1, message: 'the manifest is empty' },
    ])
    expect(manifestProblems(new ApiError({ type: 'x', title: 'Forbidden', status: 403 }))).toEqual([])
    expect(manifestProblems(new Error('boom'))).toEqual([])
  })
})
