import { useInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Empty, Loading } from '../components/Async'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { ProblemMessage } from '../components/ProblemMessage'
import { Time } from '../components/Time'

const PAGE_SIZE = 50

interface Filters {
  actor: string
  action: string
  target: string
  /** datetime-local values, in the browser's time zone */
  from: string
  to: string
}

const NO_FILTERS: Filters = { actor: '', action: '', target: '', from: '', to: '' }

/** A datetime-local value (local time, no zone) as an ISO instant, or undefined when empty or not a time. */
export function toInstant(local: string): string | undefined {
  if (!local) return undefined
  const date = new Date(local)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

function toQuery(filters: Filters) {
  const query: { actor?: string; action?: string; target?: string; from?: string; to?: string } = {}
  if (filters.actor.trim()) query.actor = filters.actor.trim()
  if (filters.action.trim()) query.action = filters.action.trim()
  if (filters.target.trim()) query.target = filters.target.trim()
  const from = toInstant(filters.from)
  const to = toInstant(filters.to)
  if (from) query.from = from
  if (to) query.to = to
  return query
}

function Outcome({ outcome }: { outcome?: string }) {
  const tone = outcome === 'success' ? 'ok' : outcome === 'failure' ? 'bad' : 'calm'
  return <span className={`badge ${tone}`}>{outcome ?? 'unknown'}</span>
}

/** Every change made through the API in this organization, newest first. */
export function AuditPage() {
  const { org } = useOrg()
  const [draft, setDraft] = useState<Filters>(NO_FILTERS)
  const [filters, setFilters] = useState<Filters>(NO_FILTERS)
  const query = useInfiniteQuery({
    queryKey: listKeys.auditEvents(org, filters),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/orgs/{org}/audit-events', {
          params: { path: { org }, query: { limit: PAGE_SIZE, ...toQuery(filters), ...(pageParam ? { page_token: pageParam } : {}) } },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_page_token || undefined,
  })
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }))
  const filtered = Object.values(filters).some((v) => v.trim() !== '')
  const events = query.data?.pages.flatMap((p) => p.items ?? []) ?? []
  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle="Every change made through the API — successful or refused — with who, what, the target and the request id. It cannot be edited."
      />
      <form
        className="grid-3 audit-filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault()
          setFilters(draft)
        }}>
        <Field label="Actor">
          {(p) => (
            <input
              {...p}
              value={draft.actor}
              onChange={set('actor')}
              placeholder={`anyone, or e.g. service:${org}/ci or user:alice`}
              aria-describedby="audit-filter-hint"
            />
          )}
        </Field>
        <Field label="Action">
          {(p) => (
            <input
              {...p}
              value={draft.action}
              onChange={set('action')}
              placeholder="e.g. createProject"
              aria-describedby="audit-filter-hint"
            />
          )}
        </Field>
        <Field label="Target">
          {(p) => (
            <input
              {...p}
              value={draft.target}
              onChange={set('target')}
              placeholder={`/api/v1/orgs/${org}/…`}
              aria-describedby="audit-filter-hint"
            />
          )}
        </Field>
        <Field label="From">
          {(p) => <input {...p} type="datetime-local" value={draft.from} onChange={set('from')} aria-describedby="audit-filter-hint" />}
        </Field>
        <Field label="To">
          {(p) => <input {...p} type="datetime-local" value={draft.to} onChange={set('to')} aria-describedby="audit-filter-hint" />}
        </Field>
        <div className="actions filter-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button
            type="button"
            disabled={!filtered && Object.values(draft).every((v) => v === '')}
            onClick={() => {
              setDraft(NO_FILTERS)
              setFilters(NO_FILTERS)
            }}>
            Clear
          </button>
        </div>
      </form>
      <p className="hint audit-hint" id="audit-filter-hint">
        Actor: a username or service user id. Action: an API operation such as createProject. Target: the start of a path. Times are in your
        time zone. Filters apply when you press Apply filters.
      </p>
      {query.isPending ? (
        <Loading what="the audit log" />
      ) : query.isError && events.length === 0 ? (
        <ProblemMessage error={query.error} onRetry={() => query.refetch()} />
      ) : events.length === 0 ? (
        <Empty>
          {filtered
            ? 'No events match these filters. Widen the time range or clear a filter.'
            : 'Nothing has been changed in this organization yet. Changes made through the API appear here.'}
        </Empty>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th>Time</th>
                <th>Actor</th>
                <th>Action</th>
                <th>Method</th>
                <th>Target</th>
                <th>Status</th>
                <th>Request id</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e, i) => (
                <tr key={e.id ?? i}>
                  <td className="nowrap">
                    <Time value={e.occurred_at} absolute />
                  </td>
                  <td>
                    {e.actor}
                    {e.actor_kind && <div className="hint">{e.actor_kind}</div>}
                  </td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>
                    <code>{e.method}</code>
                  </td>
                  <td className="wrap-anywhere">
                    <code>{e.target}</code>
                  </td>
                  <td className="nowrap">
                    {e.status} <Outcome outcome={e.outcome} />
                  </td>
                  <td className="wrap-anywhere">
                    <code className="small">{e.request_id ?? '—'}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {query.isFetchNextPageError && <ProblemMessage error={query.error} onRetry={() => query.fetchNextPage()} />}
          <div className="actions load-more">
            {query.hasNextPage ? (
              <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            ) : (
              <span className="muted">{events.length === 1 ? 'One event' : `${events.length} events`}; that is all.</span>
            )}
          </div>
        </>
      )}
    </>
  )
}
