import { ApiError } from '../api/client'
import type { LineProblem } from '../components/CodeEditor'

/**
 * The manifest problems of a failed submission or dry-run, at their lines. Problems without a
 * line (e.g. a rule that matches nothing) are put on line 1 so they are still seen in the editor.
 */
export function manifestProblems(error: unknown): LineProblem[] {
  if (!(error instanceof ApiError)) return []
  const errors = error.problem.errors ?? []
  if (errors.length === 0 && (error.status === 400 || error.status === 422)) {
    return [{ line: 1, message: error.problem.detail ?? error.problem.title }]
  }
  return errors.map((e) => ({
    line: e.line ?? 1,
    message: `${e.path ? `${e.path}: ` : ''}${e.detail ?? 'is not valid'}`,
  }))
}

export const MANIFEST_TEMPLATE = `# What this environment needs. Every resource gets a module and a runner from the rules.
# workloads:
#   api:
#     resources:
#       db:
#         type: postgres
#         params: { version: "16" }
# shared:
#   dns:
#     type: dns-zone
`
