import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { api, manifestBody, unwrap, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { Loading } from '../components/Async'
import { CodeEditor } from '../components/CodeEditor'
import { ProblemMessage } from '../components/ProblemMessage'
import { StatusBadge } from '../components/Status'
import { Time } from '../components/Time'
import { manifestProblems, MANIFEST_TEMPLATE } from './problems'

type DryRun = Schemas['DryRunView']

/** The environment's manifest in an editor, checked against the organization's configuration. */
export function ManifestTab({ org, project, env, editable }: { org: string; project: string; env: string; editable: boolean }) {
  const navigate = useNavigate()
  const client = useQueryClient()
  const path = { org, project, env }
  const latest = useQuery({
    queryKey: listKeys.manifest(org, project, env),
    queryFn: async () => {
      const page = await unwrap(
        api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/manifests', { params: { path, query: { limit: 1 } } }),
      )
      const newest = page.items?.[0]
      if (!newest?.version) return null
      return unwrap(
        api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/manifests/{version}', {
          params: { path: { ...path, version: newest.version } },
        }),
      )
    },
  })
  // the editor starts from the newest manifest once it has loaded
  const [text, setText] = useState<string | null>(null)
  if (latest.data !== undefined && text === null) setText(latest.data?.content ?? MANIFEST_TEMPLATE)
  const stored = latest.data?.content
  const dirty = text !== null && text !== (stored ?? MANIFEST_TEMPLATE)

  const dryRun = useMutation({
    mutationFn: (content: string) =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/projects/{project}/envs/{env}/manifest/dry-run', {
          params: { path },
          ...manifestBody(content),
        }),
      ) as Promise<DryRun>,
  })
  const start = useMutation({
    mutationFn: async ({ content, mode }: { content: string; mode: 'plan' | 'deploy' }) => {
      let version = latest.data?.version
      if (version === undefined || content !== stored) {
        const saved = await unwrap(
          api.PUT('/api/v1/orgs/{org}/projects/{project}/envs/{env}/manifest', {
            params: { path },
            ...manifestBody(content),
          }),
        )
        version = saved.version
      }
      return unwrap(
        api.POST('/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments', {
          params: { path },
          body: { mode, manifest_version: version },
        }),
      ) as Promise<Schemas['DeploymentView']>
    },
    onSuccess: async (deployment) => {
      await client.invalidateQueries({ queryKey: listKeys.environment(org, project, env) })
      navigate(`/orgs/${org}/projects/${project}/envs/${env}/deployments/${deployment.id}`)
    },
  })
  const failure = start.error ?? dryRun.error
  const problems = manifestProblems(failure)

  if (latest.isPending || text === null) return <Loading what="the manifest" />
  if (latest.isError) return <ProblemMessage error={latest.error} onRetry={() => latest.refetch()} />
  const busy = dryRun.isPending || start.isPending
  return (
    <div>
      <p className="muted small">
        {latest.data ? (
          <>
            Version {latest.data.version}, submitted <Time value={latest.data.created_at} /> by {latest.data.created_by}.
          </>
        ) : (
          'No manifest yet.'
        )}
        {dirty && <strong> Unsaved changes.</strong>}
      </p>
      <CodeEditor
        label="Manifest"
        language="yaml"
        value={text}
        problems={problems}
        readOnly={!editable}
        minHeight="18rem"
        onChange={(value) => {
          setText(value)
          if (dryRun.data || dryRun.error) dryRun.reset()
          if (start.error) start.reset()
        }}
      />
      {editable && (
        <div className="editor-toolbar">
          <button type="button" disabled={busy} onClick={() => dryRun.mutate(text)}>
            {dryRun.isPending ? 'Checking…' : 'Dry-run'}
          </button>
          <button type="button" disabled={busy} onClick={() => start.mutate({ content: text, mode: 'plan' })}>
            Plan
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => start.mutate({ content: text, mode: 'deploy' })}>
            {start.isPending ? 'Starting…' : 'Deploy'}
          </button>
          <span className="spacer" />
          {dirty && (
            <button
              type="button"
              className="link"
              onClick={() => {
                setText(stored ?? MANIFEST_TEMPLATE)
                dryRun.reset()
                start.reset()
              }}>
              Discard changes
            </button>
          )}
        </div>
      )}
      {failure != null && <ProblemMessage error={failure} />}
      {dryRun.data && <DryRunResult result={dryRun.data} />}
    </div>
  )
}

function DryRunResult({ result }: { result: DryRun }) {
  const s = result.summary ?? {}
  const nodes = [...(result.nodes ?? [])].sort((a, b) => (a.change === 'unchanged' ? 1 : 0) - (b.change === 'unchanged' ? 1 : 0))
  return (
    <section aria-labelledby="dry-run-title" className="card">
      <h2 id="dry-run-title" style={{ marginTop: 0 }}>
        Dry-run: the manifest is valid
      </h2>
      <div className="summary-counts" aria-label="Changes">
        <span>{s.add ?? 0} to add</span>
        <span>{s.change ?? 0} to change</span>
        <span>{s.destroy ?? 0} to destroy</span>
        <span className="muted">{s.unchanged ?? 0} unchanged</span>
      </div>
      <table>
        <thead>
          <tr>
            <th>Resource</th>
            <th>Change</th>
            <th>Module</th>
            <th>Runner</th>
            <th>Inputs known after apply</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => (
            <tr key={n.key}>
              <td>
                <code>{n.id}</code>{' '}
                <span className="muted small">
                  {n.type}
                  {n.class !== 'default' ? ` (${n.class})` : ''}
                </span>
              </td>
              <td>
                <StatusBadge status={n.change} />
                {n.reasons?.length ? <span className="muted small"> {n.reasons.join(', ')}</span> : null}
              </td>
              <td>
                {n.module_id}
                {n.module_version ? ` v${n.module_version}` : ''}
              </td>
              <td>{n.runner_id ?? <span className="muted">—</span>}</td>
              <td>{n.unknown?.length ? n.unknown.join(', ') : <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
