import { Managed } from '../components/Managed'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys, useEnvTypes, useEnvironments } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, ProblemMessage, problemsByField } from '../components/ProblemMessage'
import { StatusBadge } from '../components/Status'
import { Time } from '../components/Time'

/** A project: its environments, its name. */
export function ProjectPage() {
  const { org, can } = useOrg()
  const { project = '' } = useParams()
  const navigate = useNavigate()
  const client = useQueryClient()
  const [dialog, setDialog] = useState<'env' | 'rename' | null>(null)
  const projectQuery = useQuery({
    queryKey: listKeys.project(org, project),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/projects/{project}', { params: { path: { org, project } } })),
  })
  const envs = useEnvironments(org, project)
  const editable = can('developer')
  return (
    <>
      <div className="breadcrumbs">
        <Link to={`/orgs/${org}/projects`}>Projects</Link> /
      </div>
      <Async query={projectQuery} what="the project">
        {(p) => (
          <>
            <PageHeader title={p.name ?? project} subtitle={<code>{project}</code>}>
              {editable && (
                <>
                  <button type="button" className="primary" onClick={() => setDialog('env')}>
                    New environment
                  </button>
                  <button type="button" onClick={() => setDialog('rename')}>
                    Rename
                  </button>
                  <ConfirmButton
                    label="Delete project"
                    title={`Delete project “${project}”?`}
                    onConfirm={async () => {
                      await unwrap(api.DELETE('/api/v1/orgs/{org}/projects/{project}', { params: { path: { org, project } } }))
                      await client.invalidateQueries({ queryKey: listKeys.projects(org) })
                      navigate(`/orgs/${org}/projects`)
                    }}>
                    A project can only be deleted when it has no environments left.
                  </ConfirmButton>
                </>
              )}
            </PageHeader>
            {dialog === 'rename' && <RenameDialog org={org} project={p} onClose={() => setDialog(null)} />}
          </>
        )}
      </Async>
      <h2>Environments</h2>
      <Async
        query={envs}
        what="environments"
        isEmpty={(d) => !d.items?.length}
        empty={<>No environments yet.{editable ? ' Create one to deploy into.' : ''}</>}>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Environment</th>
                <th>Type</th>
                <th>Status</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {data.items!.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link to={`/orgs/${org}/projects/${project}/envs/${e.id}`}>{e.id}</Link> <Managed item={e} />
                  </td>
                  <td>{e.env_type_id}</td>
                  <td>
                    <StatusBadge status={e.status} />
                  </td>
                  <td>
                    <Time value={e.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {dialog === 'env' && <NewEnvironmentDialog org={org} project={project} onClose={() => setDialog(null)} />}
    </>
  )
}

function RenameDialog({ org, project, onClose }: { org: string; project: Schemas['ProjectView']; onClose: () => void }) {
  const [name, setName] = useState(project.name ?? '')
  const client = useQueryClient()
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/v1/orgs/{org}/projects/{project}', {
          params: { path: { org, project: project.id! } },
          body: { name, version: project.version },
        }),
      ),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: listKeys.projects(org) })
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  return (
    <Dialog open title="Rename project" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <Field label="Name" error={errors.name}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} required autoFocus />}
        </Field>
        <FormProblem error={save.error} fields={['name']} />
        <DialogFooter label="Save" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

function NewEnvironmentDialog({ org, project, onClose }: { org: string; project: string; onClose: () => void }) {
  const [id, setId] = useState('')
  const [type, setType] = useState('')
  const client = useQueryClient()
  const navigate = useNavigate()
  const types = useEnvTypes(org)
  const envType = type || types.data?.items?.[0]?.id || ''
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/projects/{project}/envs', {
          params: { path: { org, project } },
          body: { id, env_type_id: envType },
        }),
      ),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: listKeys.environments(org, project) })
      navigate(`/orgs/${org}/projects/${project}/envs/${id}?tab=manifest`)
    },
  })
  const errors = problemsByField(save.error)
  return (
    <Dialog open title="New environment" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <Field label="Id" hint="e.g. prod, staging, pr-1234" error={errors.id}>
          {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} required autoFocus />}
        </Field>
        <Field
          label="Environment type"
          error={errors.env_type_id}
          hint={
            types.data && !types.data.items?.length ? 'There are no environment types yet; a platform engineer creates them.' : undefined
          }>
          {(p) => (
            <select {...p} value={envType} onChange={(e) => setType(e.target.value)} required>
              {(types.data?.items ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.id}
                </option>
              ))}
            </select>
          )}
        </Field>
        {types.isError && <ProblemMessage error={types.error} />}
        <FormProblem error={save.error} fields={['id', 'env_type_id']} />
        <DialogFooter label="Create environment" busy={save.isPending} disabled={!envType} onCancel={onClose} />
      </form>
    </Dialog>
  )
}
