import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { Link, useNavigate, useParams, useSearchParams } from 'react-router'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { PageHeader } from '../components/Layout'
import { Changes, StatusBadge } from '../components/Status'
import { Tabs } from '../components/Tabs'
import { duration, Time } from '../components/Time'
import { ResourceGraph } from '../graph/ResourceGraph'
import { ManifestTab } from '../manifest/ManifestTab'
import { IssuesTab } from './IssuesPage'

type GraphNode = Schemas['GraphNode']

export const ACTIVE_DEPLOYMENT = new Set(['queued', 'running'])

/** An environment: its resources as a graph, its manifest, its deployments. */
export function EnvironmentPage() {
  const { org, can } = useOrg()
  const { project = '', env = '' } = useParams()
  const [params, setParams] = useSearchParams()
  const tab = params.get('tab') ?? 'resources'
  const navigate = useNavigate()
  const client = useQueryClient()
  const environment = useQuery({
    queryKey: listKeys.environment(org, project, env),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}', { params: { path: { org, project, env } } })),
  })
  return (
    <>
      <div className="breadcrumbs">
        <Link to={`/orgs/${org}/projects`}>Projects</Link> / <Link to={`/orgs/${org}/projects/${project}`}>{project}</Link> /
      </div>
      <Async query={environment} what="the environment">
        {(e) => (
          <PageHeader
            title={env}
            subtitle={
              <>
                Type <strong>{e.env_type_id}</strong> · <StatusBadge status={e.status} />
              </>
            }>
            {can('developer') && (
              <ConfirmButton
                label="Delete environment"
                title={`Delete environment “${env}”?`}
                confirmLabel="Destroy and delete"
                onConfirm={async () => {
                  await unwrap(api.DELETE('/api/v1/orgs/{org}/projects/{project}/envs/{env}', { params: { path: { org, project, env } } }))
                  await client.invalidateQueries({ queryKey: listKeys.project(org, project) })
                  navigate(`/orgs/${org}/projects/${project}`)
                }}>
                Its resources are destroyed by a destroy deployment first; the environment is removed when that succeeds.
              </ConfirmButton>
            )}
          </PageHeader>
        )}
      </Async>
      <Tabs
        active={tab}
        onChange={(id) => setParams({ tab: id }, { replace: true })}
        tabs={[
          { id: 'resources', label: 'Resources' },
          { id: 'manifest', label: 'Manifest' },
          { id: 'deployments', label: 'Deployments' },
          { id: 'issues', label: 'Issues' },
        ]}>
        {tab === 'resources' && <ResourcesTab org={org} project={project} env={env} />}
        {tab === 'manifest' && <ManifestTab org={org} project={project} env={env} editable={can('developer')} />}
        {tab === 'deployments' && <DeploymentsTab org={org} project={project} env={env} />}
        {tab === 'issues' && <IssuesTab org={org} project={project} env={env} />}
      </Tabs>
    </>
  )
}

function ResourcesTab({ org, project, env }: { org: string; project: string; env: string }) {
  const [selected, setSelected] = useState<string | null>(null)
  const graph = useQuery({
    queryKey: listKeys.resourceGraph(org, project, env),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/resource-graph', {
          params: { path: { org, project, env }, query: { outputs: true } },
        }),
      ),
    refetchInterval: 10_000,
  })
  return (
    <Async
      query={graph}
      what="the resources"
      isEmpty={(g) => !g.nodes?.length}
      empty={
        <>
          Nothing is deployed here yet. Write a manifest in the <Link to="?tab=manifest">Manifest</Link> tab and deploy it.
        </>
      }>
      {(g) => <ResourcesView org={org} graph={g} selected={selected} onSelect={setSelected} />}
    </Async>
  )
}

export function nodeKey(n: { type?: string; class?: string; id?: string }): string {
  return `${n.type}/${n.class}/${n.id}`
}

function ResourcesView({
  org,
  graph,
  selected,
  onSelect,
}: {
  org: string
  graph: Schemas['GraphView']
  selected: string | null
  onSelect: (key: string | null) => void
}) {
  const nodes = useMemo(
    () =>
      (graph.nodes ?? []).map((n) => ({
        key: nodeKey(n),
        label: n.id!,
        sublabel: n.type,
        status: n.status,
        issues: n.issues,
      })),
    [graph.nodes],
  )
  const edges = useMemo(() => (graph.edges ?? []).map((e) => ({ from: e.from!, to: e.to!, label: e.alias })), [graph.edges])
  const current = (graph.nodes ?? []).find((n) => nodeKey(n) === selected)
  return (
    <>
      <div className="split">
        <ResourceGraph label="Resource graph of the environment" nodes={nodes} edges={edges} selected={selected} onSelect={onSelect} />
        <aside className="side-panel" aria-label="Selected resource">
          {current ? (
            <ResourceDetails org={org} node={current} />
          ) : (
            <p className="muted">Select a resource in the graph or the list to see its outputs, module, runner and OpenTofu resources.</p>
          )}
        </aside>
      </div>
      <h2>All resources ({nodes.length})</h2>
      <table>
        <thead>
          <tr>
            <th>Resource</th>
            <th>Type</th>
            <th>Module</th>
            <th>Runner</th>
            <th>Status</th>
            <th>Issues</th>
            <th>Updated</th>
          </tr>
        </thead>
        <tbody>
          {(graph.nodes ?? []).map((n) => (
            <tr key={nodeKey(n)} className={nodeKey(n) === selected ? 'selected' : undefined}>
              <td>
                <button type="button" className="link" onClick={() => onSelect(nodeKey(n))}>
                  {n.id}
                </button>
                {n.class !== 'default' && <span className="muted small"> ({n.class})</span>}
              </td>
              <td>{n.type}</td>
              <td>
                {n.module_id} v{n.module_version}
              </td>
              <td>{n.runner_id}</td>
              <td>
                <StatusBadge status={n.status} />
              </td>
              <td>
                <IssueCount count={n.issues} />
              </td>
              <td>
                <Time value={n.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

/** A resource's open issues, linking to the environment's Issues tab; a dash when it has none. */
function IssueCount({ count }: { count?: number }) {
  if (!count) return <span className="muted">—</span>
  return (
    <Link to="?tab=issues" className="badge wait">
      {count === 1 ? '1 open issue' : `${count} open issues`}
    </Link>
  )
}

interface TofuResource {
  address?: string
  type?: string
  name?: string
  provider?: string
  mode?: string
}

function ResourceDetails({ org, node }: { org: string; node: GraphNode }) {
  const outputs = Object.entries((node.outputs ?? {}) as Record<string, unknown>)
  const resources = (Array.isArray(node.resources) ? node.resources : []) as TofuResource[]
  return (
    <div>
      <h2 style={{ marginTop: 0 }}>{node.id}</h2>
      <dl className="kv">
        <dt>Type</dt>
        <dd>
          {node.type}
          {node.class !== 'default' ? ` (${node.class})` : ''}
        </dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={node.status} />
        </dd>
        <dt>Issues</dt>
        <dd>
          <IssueCount count={node.issues} />
        </dd>
        <dt>Module</dt>
        <dd>
          <Link to={`/orgs/${org}/modules/${node.module_id}`}>{node.module_id}</Link> version {node.module_version}
        </dd>
        <dt>Runner</dt>
        <dd>{node.runner_id}</dd>
        <dt>Updated</dt>
        <dd>
          <Time value={node.updated_at} />
        </dd>
      </dl>
      <h3>Outputs</h3>
      {outputs.length === 0 ? (
        <p className="muted">No outputs.</p>
      ) : (
        <dl className="kv">
          {outputs.map(([name, value]) => (
            <div key={name} style={{ display: 'contents' }}>
              <dt>
                <code>{name}</code>
              </dt>
              <dd>
                {value === '***' ? (
                  <span className="secret" title="Sensitive: never shown">
                    ••••••• sensitive
                  </span>
                ) : (
                  <code>{typeof value === 'string' ? value : JSON.stringify(value)}</code>
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <h3>OpenTofu resources</h3>
      {resources.length === 0 ? (
        <p className="muted">None reported.</p>
      ) : (
        <ul className="plain">
          {resources.map((r, i) => (
            <li key={r.address ?? i}>
              <code>{r.address}</code>
              {r.provider && <div className="muted small">{r.provider}</div>}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function DeploymentsTab({ org, project, env }: { org: string; project: string; env: string }) {
  const list = useQuery({
    queryKey: listKeys.deployments(org, project, env),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments', {
          params: { path: { org, project, env }, query: { limit: 100 } },
        }),
      ),
    refetchInterval: (q) => ((q.state.data?.items ?? []).some((d) => ACTIVE_DEPLOYMENT.has(d.status ?? '')) ? 2_000 : 15_000),
  })
  return (
    <Async query={list} what="deployments" isEmpty={(d) => !d.items?.length} empty="No deployments yet.">
      {(data) => (
        <table aria-label="Deployments">
          <thead>
            <tr>
              <th>Started</th>
              <th>Mode</th>
              <th>Status</th>
              <th>Changes</th>
              <th>Failed</th>
              <th>Manifest</th>
              <th>By</th>
              <th>Took</th>
            </tr>
          </thead>
          <tbody>
            {data.items!.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link to={`/orgs/${org}/projects/${project}/envs/${env}/deployments/${d.id}`}>
                    <Time value={d.created_at} />
                  </Link>
                </td>
                <td>
                  {d.mode}
                  {d.rollback_of ? <span className="muted small"> of {d.rollback_of.slice(0, 8)}</span> : null}
                </td>
                <td>
                  <StatusBadge status={d.status} />
                </td>
                <td>
                  <Changes changes={d.changes} planned={d.status === 'awaiting_approval'} />
                </td>
                <td>
                  <Failures failures={d.failures ?? []} failed={d.progress?.failed ?? 0} />
                </td>
                <td>{d.manifest_version ? `v${d.manifest_version}` : '—'}</td>
                <td>{d.created_by}</td>
                <td>{duration(d.started_at, d.finished_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Async>
  )
}

/** The failed resources with the first line of each error; the deployment's page has the rest. */
function Failures({ failures, failed }: { failures: Schemas['DeploymentFailure'][]; failed: number }) {
  if (failures.length === 0) return <span className="muted">—</span>
  return (
    <ul className="plain failures">
      {failures.map((f) => (
        <li key={f.resource}>
          <code>{f.resource}</code>: {f.error}
        </li>
      ))}
      {failed > failures.length && <li className="muted">and {failed - failures.length} more</li>}
    </ul>
  )
}
