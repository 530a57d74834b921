import type { ReactNode } from 'react'
import type { UseQueryResult } from '@tanstack/react-query'
import { ProblemMessage } from './ProblemMessage'

export function Loading({ what }: { what?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> Loading{what ? ` ${what}` : ''}…
    </div>
  )
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>
}

/** Shows a query's loading, error and empty states, and its data when there is some. */
export function Async<T>({
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>
  what?: string
  isEmpty?: (data: T) => boolean
  empty?: ReactNode
  children: (data: T) => ReactNode
}) {
  if (query.isPending) return <Loading what={what} />
  if (query.isError) return <ProblemMessage error={query.error} onRetry={() => query.refetch()} />
  if (isEmpty && isEmpty(query.data) && empty) return <Empty>{empty}</Empty>
  return <>{children(query.data)}</>
}
