import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { api, unwrap } from '../api/client'
import { listKeys } from '../api/lists'
import type { components } from '../api/schema'
import { Async, Empty } from '../components/Async'
import { PageHeader } from '../components/Layout'
import { duration, Time } from '../components/Time'

type Diagnostics = components['schemas']['EngineDiagnostics']
type Entry = components['schemas']['EngineDiagnosticsDeployment']

const REFRESH_MS = 10_000

function deploymentLink(d: { org?: string; project?: string; env?: string }, id?: string) {
  return `/orgs/${d.org}/projects/${d.project}/envs/${d.env}/deployments/${id}`
}

function Where({ d }: { d: { org?: string; project?: string; env?: string } }) {
  return (
    <code>
      {d.org}/{d.project}/{d.env}
    </code>
  )
}

function Deployments({ entries, stalled }: { entries: Entry[]; stalled: boolean }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Deployment</th>
          <th>Environment</th>
          <th>Mode</th>
          <th>Status</th>
          <th>Running for</th>
          {stalled && <th>Why it does not move</th>}
        </tr>
      </thead>
      <tbody>
        {entries.map((d) => (
          <tr key={d.id}>
            <td>
              <Link to={deploymentLink(d, d.id)}>
                <code>{d.id?.slice(0, 8)}</code>
              </Link>
            </td>
            <td>
              <Where d={d} />
            </td>
            <td>{d.mode}</td>
            <td>
              <span className={`badge ${stalled ? 'bad' : 'calm'}`}>{stalled ? 'stalled' : d.status}</span>
            </td>
            <td title={d.started_at ?? undefined}>{duration(d.started_at ?? d.created_at)}</td>
            {stalled && (
              <td>
                {d.stalled_reason}{' '}
                {d.stalled_at && (
                  <span className="muted">
                    (since <Time value={d.stalled_at} />)
                  </span>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function Sections({ data }: { data: Diagnostics }) {
  const stalled = data.stalled ?? []
  const longRunning = data.long_running ?? []
  const queues = data.queues ?? []
  const waiting = data.waiting_jobs ?? []
  const failures = data.recent_failures ?? []
  const checksNotStarted = data.checks_not_started ?? []
  return (
    <>
      <section aria-labelledby="engine-stalled">
        <h2 id="engine-stalled">Stalled deployments ({stalled.length})</h2>
        {stalled.length ? <Deployments entries={stalled} stalled /> : <Empty>No deployment is stalled.</Empty>}
      </section>
      <section aria-labelledby="engine-long">
        <h2 id="engine-long">Running for long ({longRunning.length})</h2>
        {longRunning.length ? (
          <Deployments entries={longRunning} stalled={false} />
        ) : (
          <Empty>No deployment has been running for more than 30 minutes.</Empty>
        )}
      </section>
      <section aria-labelledby="engine-waiting">
        <h2 id="engine-waiting">Jobs no runner has taken ({waiting.length})</h2>
        {waiting.length ? (
          <table>
            <thead>
              <tr>
                <th>Resource</th>
                <th>Environment</th>
                <th>Runner</th>
                <th>Chosen by</th>
                <th>Waiting since</th>
              </tr>
            </thead>
            <tbody>
              {waiting.map((j) => (
                <tr key={j.job_id}>
                  <td>
                    <Link to={deploymentLink(j, j.deployment_id)}>
                      <code>{j.resource}</code>
                    </Link>
                  </td>
                  <td>
                    <Where d={j} />
                  </td>
                  <td>
                    <code>{j.runner}</code>{' '}
                    <span className={`badge ${j.runner_status === 'offline' ? 'bad' : 'calm'}`}>{j.runner_status}</span>
                  </td>
                  <td>
                    {j.runner_rule_id ? (
                      <>
                        rule <code>{j.runner_rule_id}</code>
                      </>
                    ) : (
                      <span className="muted">the runner that provisioned it</span>
                    )}
                  </td>
                  <td>
                    <Time value={j.queued_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty>Every queued job was taken within a minute.</Empty>
        )}
      </section>
      <section aria-labelledby="engine-queues">
        <h2 id="engine-queues">Queues ({queues.length})</h2>
        {queues.length ? (
          <table>
            <thead>
              <tr>
                <th>Environment</th>
                <th>Deployments waiting behind the running one</th>
              </tr>
            </thead>
            <tbody>
              {queues.map((q) => (
                <tr key={`${q.org}/${q.project}/${q.env}`}>
                  <td>
                    <Where d={q} />
                  </td>
                  <td>{q.queued}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty>No deployment is waiting for another.</Empty>
        )}
      </section>
      <section aria-labelledby="engine-failures">
        <h2 id="engine-failures">Recent advance failures ({failures.length})</h2>
        {failures.length ? (
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Deployment</th>
                <th>Reason</th>
              </tr>
            </thead>
            <tbody>
              {failures.map((f, i) => (
                <tr key={`${f.deployment_id}-${f.at}-${i}`}>
                  <td>
                    <Time value={f.at} />
                  </td>
                  <td>
                    <code>{f.deployment_id}</code>
                  </td>
                  <td>{f.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty>This replica has seen no advance fail.</Empty>
        )}
      </section>
      <section aria-labelledby="engine-checks">
        <h2 id="engine-checks">Scheduled checks that could not start ({checksNotStarted.length})</h2>
        {checksNotStarted.length ? (
          <table>
            <thead>
              <tr>
                <th>Environment</th>
                <th>Reason</th>
                <th>Last try</th>
              </tr>
            </thead>
            <tbody>
              {checksNotStarted.map((c) => (
                <tr key={`${c.org}/${c.project}/${c.env}`}>
                  <td>
                    <Link to={`/orgs/${c.org}/projects/${c.project}/envs/${c.env}`}>
                      <Where d={c} />
                    </Link>
                  </td>
                  <td>{c.reason}</td>
                  <td>
                    <Time value={c.at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty>Every scheduled check that was due could start.</Empty>
        )}
      </section>
    </>
  )
}

/** Why deployments do not move, across every organization (instance administrators). Refreshes itself. */
export function EnginePage() {
  const query = useQuery({
    queryKey: listKeys.engine(),
    queryFn: () => unwrap(api.GET('/api/v1/admin/engine', { params: { query: {} } })),
    refetchInterval: REFRESH_MS,
  })
  return (
    <>
      <PageHeader
        title="Deployment engine"
        subtitle="Across every organization: deployments that cannot advance and why, long runs, jobs no runner took, queues, this replica's recent advance failures, and scheduled checks that could not start. Refreshes every 10 seconds."
      />
      <Async query={query} what="the engine's state">
        {(data) => <Sections data={data} />}
      </Async>
    </>
  )
}
