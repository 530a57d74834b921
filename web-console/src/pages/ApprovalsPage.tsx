import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { api, unwrap } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { PageHeader } from '../components/Layout'
import { Changes } from '../components/Status'
import { Time } from '../components/Time'

/** The deployments that wait for the caller's decision: their role may decide, someone else started them, and they have not decided yet. */
export function ApprovalsPage() {
  const { org } = useOrg()
  const pending = useQuery({
    queryKey: listKeys.approvals(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/approvals', { params: { path: { org } } })),
    refetchInterval: 15_000,
  })
  return (
    <>
      <PageHeader
        title="Approvals"
        subtitle="Deployments that wait for your decision, oldest first. Open one to review its plan, then approve or reject it."
      />
      <Async query={pending} what="what waits for your approval" isEmpty={(d) => d.length === 0} empty="Nothing waits for your approval.">
        {(items) => (
          <table aria-label="Deployments waiting for your approval">
            <thead>
              <tr>
                <th>Environment</th>
                <th>Deployment</th>
                <th>Started</th>
                <th>Changes</th>
                <th>Approvals</th>
                <th>Expires</th>
              </tr>
            </thead>
            <tbody>
              {items.map((a) => (
                <tr key={a.deployment_id}>
                  <td>
                    <Link to={`/orgs/${org}/projects/${a.project}/envs/${a.env}/deployments/${a.deployment_id}`}>
                      {a.project}/{a.env}
                    </Link>
                  </td>
                  <td>
                    {a.mode}
                    {(a.reconciles ?? []).length > 0 && (
                      <>
                        {' '}
                        <span
                          className="badge wait"
                          title={`Puts back what drifted, for ${a.reconciles!.length === 1 ? 'one issue' : `${a.reconciles!.length} issues`}`}>
                          reconcile
                        </span>
                      </>
                    )}
                  </td>
                  <td className="nowrap">
                    <Time value={a.created_at} />
                    <div className="muted small">by {a.created_by}</div>
                  </td>
                  <td>
                    <Changes changes={a.changes} planned />
                  </td>
                  <td>
                    {a.approvals ?? 0} of {a.required ?? 1}
                  </td>
                  <td className="nowrap">
                    <Time value={a.expires_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
    </>
  )
}
