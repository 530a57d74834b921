import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { api, unwrap } from '../api/client'
import { listKeys, useEnvironments, useProjects } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, ProblemMessage, problemsByField } from '../components/ProblemMessage'
import { StatusBadge } from '../components/Status'
import { FirstSteps } from './FirstSteps'

/** The organization's projects, each with its environments. */
export function ProjectsPage() {
  const { org, can } = useOrg()
  const [creating, setCreating] = useState(false)
  const query = useProjects(org)
  return (
    <>
      <PageHeader title="Projects" subtitle="Applications and the environments they run in.">
        {can('developer') && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New project
          </button>
        )}
      </PageHeader>
      <FirstSteps />
      <Async
        query={query}
        what="projects"
        isEmpty={(d) => !d.items?.length}
        empty={<>No projects yet.{can('developer') ? ' Create one, then an environment in it, and submit a manifest.' : ''}</>}>
        {(data) => (
          <div className="cards">
            {data.items!.map((p) => (
              <ProjectCard key={p.id} org={org} id={p.id!} name={p.name ?? p.id!} />
            ))}
          </div>
        )}
      </Async>
      {creating && <NewProjectDialog org={org} onClose={() => setCreating(false)} />}
    </>
  )
}

function ProjectCard({ org, id, name }: { org: string; id: string; name: string }) {
  const envs = useEnvironments(org, id)
  return (
    <section className="card" aria-labelledby={`project-${id}`}>
      <h2 id={`project-${id}`} style={{ marginTop: 0 }}>
        <Link to={`/orgs/${org}/projects/${id}`}>{name}</Link>
      </h2>
      <p className="muted small">
        <code>{id}</code>
      </p>
      {envs.isPending ? (
        <p className="muted">Loading environments…</p>
      ) : envs.isError ? (
        <ProblemMessage error={envs.error} />
      ) : envs.data.items?.length ? (
        <ul className="plain">
          {envs.data.items.map((e) => (
            <li key={e.id}>
              <Link to={`/orgs/${org}/projects/${id}/envs/${e.id}`}>{e.id}</Link> <span className="muted small">{e.env_type_id}</span>{' '}
              {e.status !== 'active' && <StatusBadge status={e.status} />}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No environments yet.</p>
      )}
    </section>
  )
}

function NewProjectDialog({ org, onClose }: { org: string; onClose: () => void }) {
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const client = useQueryClient()
  const navigate = useNavigate()
  const save = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/orgs/{org}/projects', { params: { path: { org } }, body: { id, name: name || id } })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: listKeys.projects(org) })
      navigate(`/orgs/${org}/projects/${id}`)
    },
  })
  const errors = problemsByField(save.error)
  return (
    <Dialog open title="New project" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <Field label="Id" hint="Lowercase letters, digits and dashes, e.g. checkout." error={errors.id}>
          {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} required autoFocus />}
        </Field>
        <Field label="Name" hint="Shown in the console; defaults to the id." error={errors.name}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <FormProblem error={save.error} fields={['id', 'name']} />
        <DialogFooter label="Create project" busyLabel="Creating…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}
