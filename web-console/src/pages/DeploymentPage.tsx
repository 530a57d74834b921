import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { PageHeader } from '../components/Layout'
import { LogViewer } from '../components/LogViewer'
import { ProblemMessage } from '../components/ProblemMessage'
import { ProgressBar, StatusBadge } from '../components/Status'
import { duration, Time } from '../components/Time'
import { ResourceGraph } from '../graph/ResourceGraph'
import { ApprovalCard, PlanSummary } from './DeploymentApproval'
import { ACTIVE_DEPLOYMENT, nodeKey } from './EnvironmentPage'

type Deployment = Schemas['DeploymentView']

/** Deployments that have not ended: running ones, and those that wait for approval. */
const UNFINISHED = new Set([...ACTIVE_DEPLOYMENT, 'awaiting_approval'])

/** One deployment, live: node statuses on the graph, progress, logs per resource, its approval, cancel and roll back. */
export function DeploymentPage() {
  const { org, can } = useOrg()
  const { project = '', env = '', id = '' } = useParams()
  const path = { org, project, env, id }
  const [selected, setSelected] = useState<string | null>(null)
  const deployment = useQuery({
    queryKey: listKeys.deployment(org, project, env, id),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments/{id}', { params: { path } })),
    // while it waits for approval, others' decisions and the expiry change it, but slowly
    refetchInterval: (q) =>
      ACTIVE_DEPLOYMENT.has(q.state.data?.status ?? 'queued') ? 1_500 : q.state.data?.status === 'awaiting_approval' ? 10_000 : false,
  })
  const graph = useQuery({
    queryKey: listKeys.deploymentGraph(org, project, env, id),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments/{id}/graph', { params: { path } })),
  })
  return (
    <>
      <div className="breadcrumbs">
        <Link to={`/orgs/${org}/projects`}>Projects</Link> / <Link to={`/orgs/${org}/projects/${project}`}>{project}</Link> /{' '}
        <Link to={`/orgs/${org}/projects/${project}/envs/${env}?tab=deployments`}>{env}</Link> /
      </div>
      <Async query={deployment} what="the deployment">
        {(d) => (
          <>
            <DeploymentHeader org={org} project={project} env={env} deployment={d} editable={can('developer')} onSelect={setSelected} />
            {d.approval && <ApprovalCard where={path} deployment={d} />}
            <DeploymentBody
              deployment={d}
              graph={graph.data}
              graphError={graph.error}
              selected={selected}
              onSelect={setSelected}
              logsUrl={`/api/v1/orgs/${org}/projects/${project}/envs/${env}/deployments/${id}/logs?follow=true${selected ? `&node=${encodeURIComponent(selected)}` : ''}`}
            />
          </>
        )}
      </Async>
    </>
  )
}

function DeploymentHeader({
  org,
  project,
  env,
  deployment: d,
  editable,
  onSelect,
}: {
  org: string
  project: string
  env: string
  deployment: Deployment
  editable: boolean
  onSelect: (key: string) => void
}) {
  const client = useQueryClient()
  const navigate = useNavigate()
  const path = { org, project, env }
  const active = UNFINISHED.has(d.status ?? '')
  const rollback = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments', {
          params: { path },
          body: { mode: 'rollback', rollback_to: d.id },
        }),
      ) as Promise<Deployment>,
    onSuccess: (created) => navigate(`/orgs/${org}/projects/${project}/envs/${env}/deployments/${created.id}`),
  })
  const progress = d.progress ?? {}
  return (
    <>
      <PageHeader
        title={`${d.mode === 'rollback' ? 'Rollback' : d.mode === 'plan' ? 'Plan' : d.mode === 'destroy' ? 'Destroy' : 'Deployment'} of ${env}`}
        subtitle={
          <>
            Started <Time value={d.created_at} /> by {d.created_by} · manifest {d.manifest_version ? `v${d.manifest_version}` : '—'}
            {d.force ? ' · forced' : ''} · took {duration(d.started_at, d.finished_at)}
          </>
        }>
        <StatusBadge status={d.status} />
        {editable && active && (
          <ConfirmButton
            label={d.cancel_requested ? 'Cancelling…' : 'Cancel'}
            disabled={d.cancel_requested}
            title="Cancel this deployment?"
            confirmLabel="Cancel deployment"
            onConfirm={async () => {
              await unwrap(
                api.POST('/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments/{id}/cancel', {
                  params: { path: { ...path, id: d.id! } },
                }),
              )
              await client.invalidateQueries({ queryKey: listKeys.deployments(org, project, env) })
            }}>
            Nothing new starts; running OpenTofu processes are interrupted and their resources marked cancelled.
          </ConfirmButton>
        )}
        {editable && !active && d.status === 'succeeded' && (d.mode === 'deploy' || d.mode === 'rollback') && (
          <ConfirmButton
            label="Roll back to this deployment"
            danger={false}
            title="Roll back to this deployment?"
            confirmLabel="Roll back"
            onConfirm={() => rollback.mutateAsync()}>
            A new deployment applies the module versions and inputs this one used, to every resource it deployed.
          </ConfirmButton>
        )}
      </PageHeader>
      {d.error && (
        <div className="problem" role="alert">
          <strong>{d.error}</strong>
          {(d.failures ?? []).length > 0 && (
            <ul className="failures">
              {d.failures!.map((f) => {
                const node = (d.nodes ?? []).find((n) => n.id === f.resource)
                return (
                  <li key={f.resource}>
                    <code>{f.resource}</code>: {f.error}{' '}
                    {node && (
                      <button
                        type="button"
                        className="link"
                        onClick={() => {
                          onSelect(nodeKey(node))
                          document.getElementById('deployment-logs')?.scrollIntoView?.()
                        }}>
                        Show its logs
                      </button>
                    )}
                  </li>
                )
              })}
              {(progress.failed ?? 0) > d.failures!.length && (
                <li className="muted">and {(progress.failed ?? 0) - d.failures!.length} more</li>
              )}
            </ul>
          )}
        </div>
      )}
      <ProgressBar label="Resources done" done={progress.done ?? 0} total={progress.total ?? d.nodes?.length ?? 0} />
      <div className="summary-counts small" aria-label="Resources by status">
        {Object.entries(progress)
          .filter(([k, v]) => k !== 'done' && k !== 'total' && v > 0)
          .map(([k, v]) => (
            <span key={k}>
              <StatusBadge status={k} /> {v}
            </span>
          ))}
      </div>
    </>
  )
}

function DeploymentBody({
  deployment,
  graph,
  graphError,
  selected,
  onSelect,
  logsUrl,
}: {
  deployment: Deployment
  graph?: Schemas['GraphView']
  graphError: unknown
  selected: string | null
  onSelect: (key: string | null) => void
  logsUrl: string
}) {
  const statuses = useMemo(() => new Map((deployment.nodes ?? []).map((n) => [nodeKey(n), n])), [deployment.nodes])
  // a failed resource says why beside it: the first line of its error
  const nodes = useMemo(
    () =>
      (deployment.nodes ?? []).map((n) => ({
        key: nodeKey(n),
        label: n.id!,
        status: n.status,
        sublabel: n.status === 'failed' && n.error ? `${n.type} · ${firstLine(n.error)}` : n.type,
      })),
    [deployment.nodes],
  )
  const edges = useMemo(() => (graph?.edges ?? []).map((e) => ({ from: e.from!, to: e.to!, label: e.alias })), [graph?.edges])
  const current = selected ? statuses.get(selected) : undefined
  return (
    <>
      {graphError != null && <ProblemMessage error={graphError} />}
      <div className="split">
        <ResourceGraph label="Resources of the deployment" nodes={nodes} edges={edges} selected={selected} onSelect={onSelect} />
        <aside className="side-panel" aria-label="Selected resource">
          {current ? (
            <>
              <h2 style={{ marginTop: 0 }}>{current.id}</h2>
              <dl className="kv">
                <dt>Status</dt>
                <dd>
                  <StatusBadge status={current.status} />
                </dd>
                <dt>Action</dt>
                <dd>{current.action ?? current.operation}</dd>
                <dt>Module</dt>
                <dd>
                  {current.module_id} v{current.module_version}
                </dd>
                <dt>Runner</dt>
                <dd>{current.runner_id ?? '—'}</dd>
                <dt>Attempt</dt>
                <dd>{current.attempt ?? '—'}</dd>
                <dt>Took</dt>
                <dd>{duration(current.started_at, current.finished_at)}</dd>
                {current.plan_summary != null && (
                  <>
                    <dt>Plan</dt>
                    <dd>
                      <PlanSummary summary={current.plan_summary} planned={current.status === 'planned'} />
                    </dd>
                  </>
                )}
              </dl>
              {current.error && (
                <div className="problem" role="alert">
                  {current.error}
                </div>
              )}
              <button type="button" className="link" onClick={() => onSelect(null)}>
                Show the logs of all resources
              </button>
            </>
          ) : (
            <p className="muted">Select a resource to see its details and only its logs.</p>
          )}
        </aside>
      </div>
      <h2 id="deployment-logs">
        Logs{' '}
        {current ? (
          <>
            of <code>{current.id}</code>
          </>
        ) : (
          'of all resources'
        )}
      </h2>
      <LogViewer url={logsUrl} label={current ? `Logs of ${current.id}` : 'Logs of the deployment'} byResource={!current} />
      <h2>Resources</h2>
      <table>
        <thead>
          <tr>
            <th>Resource</th>
            <th>Action</th>
            <th>Status</th>
            <th>Module</th>
            <th>Runner</th>
            <th>Took</th>
            <th>Error</th>
          </tr>
        </thead>
        <tbody>
          {(deployment.nodes ?? []).map((n) => (
            <tr key={nodeKey(n)} className={nodeKey(n) === selected ? 'selected' : undefined}>
              <td>
                <button type="button" className="link" onClick={() => onSelect(nodeKey(n))}>
                  {n.id}
                </button>
                <span className="muted small"> {n.type}</span>
              </td>
              <td>{n.action ?? n.operation}</td>
              <td>
                <StatusBadge status={n.status} />
              </td>
              <td>
                {n.module_id} v{n.module_version}
              </td>
              <td>{n.runner_id ?? '—'}</td>
              <td>{duration(n.started_at, n.finished_at)}</td>
              <td>{n.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

function firstLine(error: string): string {
  const line = error.trim().split('\n')[0]
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}
