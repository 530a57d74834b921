import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Empty, Loading } from '../components/Async'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, ProblemMessage, problemsByField } from '../components/ProblemMessage'
import { Time } from '../components/Time'

type Issue = Schemas['Issue']
type IssueKind = NonNullable<Issue['kind']>

const PAGE_SIZE = 50

export const ISSUE_KINDS: { kind: IssueKind; label: string; tone: string }[] = [
  { kind: 'drift', label: 'drift', tone: 'wait' },
  { kind: 'destructive-drift', label: 'destructive drift', tone: 'bad' },
  { kind: 'check-failed', label: 'check failed', tone: 'bad' },
  { kind: 'apply-failed', label: 'apply failed', tone: 'bad' },
  { kind: 'runner-unavailable', label: 'runner unavailable', tone: 'wait' },
  { kind: 'module-outdated', label: 'module outdated', tone: 'calm' },
]

function KindBadge({ kind }: { kind?: IssueKind }) {
  const known = ISSUE_KINDS.find((k) => k.kind === kind)
  return <span className={`badge ${known?.tone ?? 'calm'}`}>{known?.label ?? kind}</span>
}

interface AttributeChange {
  path?: string
  before?: unknown
  after?: unknown
}
interface ResourceDrift {
  address?: string
  attributes?: AttributeChange[]
}
interface ResourceChange {
  address?: string
  actions?: string[]
  action_reason?: string
}

function shown(value: unknown): string {
  return value === undefined || value === null ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value)
}

/** What a check found: each changed attribute with its values, and what an apply would do. */
function IssueDetail({ detail }: { detail: unknown }) {
  const d = (detail ?? {}) as { drift?: ResourceDrift[]; changes?: ResourceChange[]; error?: string }
  if (d.error) return <pre className="small wrap-anywhere">{d.error}</pre>
  return (
    <div className="small">
      {(d.drift ?? []).map((drift) => (
        <div key={drift.address}>
          Changed outside: <code>{drift.address}</code>
          <ul className="plain">
            {(drift.attributes ?? []).map((a) => (
              <li key={a.path}>
                <code>{a.path}</code>: <code>{shown(a.before)}</code> → <code>{shown(a.after)}</code>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {(d.changes ?? []).length > 0 && (
        <div>
          Putting it back would:
          <ul className="plain">
            {(d.changes ?? []).map((c) => (
              <li key={c.address}>
                <code>{c.address}</code> {(c.actions ?? []).join(' and ')}
                {c.action_reason ? ` (${c.action_reason})` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

function AcknowledgeDialog({
  issue,
  where,
  onClose,
}: {
  issue: Issue
  where: { org: string; project: string; env: string }
  onClose: () => void
}) {
  const client = useQueryClient()
  const [comment, setComment] = useState('')
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/projects/{project}/envs/{env}/issues/{id}/acknowledge', {
          params: { path: { ...where, id: issue.id! } },
          body: { comment },
        }),
      ),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: listKeys.issues(where.org) })
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  return (
    <Dialog open title={`Acknowledge the ${issue.kind} of ${issue.resource_id}`} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <p className="hint">
          The issue stays open until a check or a deployment shows the deviation gone; the comment tells others you have seen it.
        </p>
        <Field label="Comment" error={errors.comment}>
          {(p) => <textarea {...p} value={comment} onChange={(e) => setComment(e.target.value)} required maxLength={2000} />}
        </Field>
        <FormProblem error={save.error} fields={['comment']} />
        <DialogFooter label="Acknowledge" busy={save.isPending} disabled={!comment.trim()} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

/**
 * Issues, newest first: of one environment when {@code project} and {@code env} are given, else of the whole
 * organization. Open ones by default; filtered by state and kind.
 */
export function IssueList({ org, project, env }: { org: string; project?: string; env?: string }) {
  const { can } = useOrg()
  const [state, setState] = useState<'open' | 'resolved' | ''>('open')
  const [kind, setKind] = useState<IssueKind | ''>('')
  const [acknowledging, setAcknowledging] = useState<Issue | null>(null)
  const query = useInfiniteQuery({
    queryKey: listKeys.issues(org, project ?? '', env ?? '', state, kind),
    queryFn: ({ pageParam }) => {
      const filters = {
        limit: PAGE_SIZE,
        ...(state ? { state } : {}),
        ...(kind ? { kind } : {}),
        ...(pageParam ? { page_token: pageParam } : {}),
      }
      return project && env
        ? unwrap(
            api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/issues', { params: { path: { org, project, env }, query: filters } }),
          )
        : unwrap(api.GET('/api/v1/orgs/{org}/issues', { params: { path: { org }, query: filters } }))
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_page_token || undefined,
    refetchInterval: 15_000,
  })
  const issues = query.data?.pages.flatMap((p) => p.items ?? []) ?? []
  const wholeOrg = !(project && env)
  return (
    <>
      <div className="grid-3" role="group" aria-label="Filter the issues">
        <Field label="State">
          {(p) => (
            <select {...p} value={state} onChange={(e) => setState(e.target.value as typeof state)}>
              <option value="open">open</option>
              <option value="resolved">resolved</option>
              <option value="">all</option>
            </select>
          )}
        </Field>
        <Field label="Kind">
          {(p) => (
            <select {...p} value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
              <option value="">every kind</option>
              {ISSUE_KINDS.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {query.isPending ? (
        <Loading what="the issues" />
      ) : query.isError && issues.length === 0 ? (
        <ProblemMessage error={query.error} onRetry={() => query.refetch()} />
      ) : issues.length === 0 ? (
        <Empty>
          {state === 'open' && !kind
            ? 'No open issues: the last checks and deployments found nothing to fix.'
            : 'No issues match these filters.'}
        </Empty>
      ) : (
        <>
          <table aria-label="Issues">
            <thead>
              <tr>
                {wholeOrg && <th>Environment</th>}
                <th>Resource</th>
                <th>Kind</th>
                <th>What was found</th>
                <th>Seen</th>
                <th>State</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {issues.map((i) => (
                <tr key={i.id}>
                  {wholeOrg && (
                    <td>
                      <Link to={`/orgs/${org}/projects/${i.project}/envs/${i.env}?tab=issues`}>
                        {i.project}/{i.env}
                      </Link>
                    </td>
                  )}
                  <td>
                    <code>{i.resource_id}</code>
                    <div className="muted small">
                      {i.resource_type}
                      {i.resource_class !== 'default' ? ` (${i.resource_class})` : ''}
                    </div>
                  </td>
                  <td>
                    <KindBadge kind={i.kind} />
                  </td>
                  <td className="wrap-anywhere">
                    {i.summary}
                    <IssueDetail detail={i.detail} />
                  </td>
                  <td className="nowrap">
                    first <Time value={i.first_seen} />
                    <div className="muted small">
                      last <Time value={i.last_seen} />
                    </div>
                  </td>
                  <td>
                    {i.state === 'open' ? <span className="badge wait">open</span> : <span className="badge ok">resolved</span>}
                    {i.resolution && <div className="muted small">{i.resolution}</div>}
                    {i.acknowledged_at && (
                      <div className="small">
                        acknowledged by {i.acknowledged_by}: “{i.ack_comment}”
                      </div>
                    )}
                  </td>
                  <td>
                    {i.state === 'open' && can('developer') && (
                      <button type="button" onClick={() => setAcknowledging(i)}>
                        {i.acknowledged_at ? 'Comment again' : 'Acknowledge'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {query.isFetchNextPageError && <ProblemMessage error={query.error} onRetry={() => query.fetchNextPage()} />}
          {query.hasNextPage && (
            <div className="actions load-more">
              <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            </div>
          )}
        </>
      )}
      {acknowledging && (
        <AcknowledgeDialog
          issue={acknowledging}
          where={{ org, project: acknowledging.project!, env: acknowledging.env! }}
          onClose={() => setAcknowledging(null)}
        />
      )}
    </>
  )
}

/** An environment's issues, and a button that checks it for drift now. */
export function IssuesTab({ org, project, env }: { org: string; project: string; env: string }) {
  const { can } = useOrg()
  const navigate = useNavigate()
  const check = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/projects/{project}/envs/{env}/checks', {
          params: { path: { org, project, env } },
          body: {},
        }),
      ),
    onSuccess: (d) => navigate(`/orgs/${org}/projects/${project}/envs/${env}/deployments/${d.id}`),
  })
  return (
    <>
      {can('developer') && (
        <div className="actions">
          <button type="button" onClick={() => check.mutate()} disabled={check.isPending}>
            Check for drift now
          </button>
          <span className="hint">Plans every resource with what it was last applied with; nothing is applied.</span>
        </div>
      )}
      {check.error ? <ProblemMessage error={check.error} /> : null}
      <IssueList org={org} project={project} env={env} />
    </>
  )
}

/** The issues of every environment of the organization. */
export function IssuesPage() {
  const { org } = useOrg()
  return (
    <>
      <PageHeader
        title="Issues"
        subtitle="What checks and deployments found that needs attention: drift, failed checks and applies. An issue resolves itself when a later check or deployment shows it gone."
      />
      <IssueList org={org} />
    </>
  )
}
