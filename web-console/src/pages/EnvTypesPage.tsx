import { Managed } from '../components/Managed'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Schemas } from '../api/client'
import { useEnvTypes } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { Dialog } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { fieldErrors, ProblemMessage } from '../components/ProblemMessage'
import { Time } from '../components/Time'

type EnvType = Schemas['EnvTypeView']

/** Environment types (development, staging, production…) that rules can select on. */
export function EnvTypesPage() {
  const { org, can } = useOrg()
  const key = ['org', org, 'env-types']
  const query = useEnvTypes(org)
  const [editing, setEditing] = useState<EnvType | 'new' | null>(null)
  const client = useQueryClient()
  const editable = can('platform-engineer')
  return (
    <>
      <PageHeader title="Environment types" subtitle="Every environment has a type; module and runner rules can choose by it.">
        {editable && <button type="button" className="primary" onClick={() => setEditing('new')}>New environment type</button>}
      </PageHeader>
      <Async query={query} what="environment types" isEmpty={(d) => !d.items?.length}
        empty={<>No environment types yet.{editable ? ' Create one such as “development” or “production”.' : ''}</>}>
        {(data) => (
          <table>
            <thead><tr><th>Id</th><th>Description</th><th>Created</th>{editable && <th><span className="sr-only">Actions</span></th>}</tr></thead>
            <tbody>
              {data.items!.map((t) => (
                <tr key={t.id}>
                  <td><code>{t.id}</code> <Managed item={t} /></td>
                  <td>{t.description || <span className="muted">—</span>}</td>
                  <td><Time value={t.created_at} /></td>
                  {editable && (
                    <td className="row-actions">
                      <button type="button" onClick={() => setEditing(t)}>Edit</button>
                      <ConfirmButton label="Delete" ariaLabel={`Delete environment type “${t.id}”`} title={`Delete environment type “${t.id}”?`}
                        onConfirm={async () => {
                          await unwrap(api.DELETE('/api/v1/orgs/{org}/env-types/{env_type}', { params: { path: { org, env_type: t.id! } } }))
                          await client.invalidateQueries({ queryKey: key })
                        }}>
                        Environments of this type and rules that name it keep it from being deleted.
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {editing && <EnvTypeDialog org={org} envType={editing === 'new' ? null : editing} onClose={() => setEditing(null)}
        onSaved={() => client.invalidateQueries({ queryKey: key })} />}
    </>
  )
}

function EnvTypeDialog({ org, envType, onClose, onSaved }: { org: string; envType: EnvType | null; onClose: () => void; onSaved: () => void }) {
  const [id, setId] = useState(envType?.id ?? '')
  const [description, setDescription] = useState(envType?.description ?? '')
  const save = useMutation({
    mutationFn: () => envType
      ? unwrap(api.PUT('/api/v1/orgs/{org}/env-types/{env_type}', {
        params: { path: { org, env_type: envType.id! } }, body: { description, version: envType.version },
      }))
      : unwrap(api.POST('/api/v1/orgs/{org}/env-types', { params: { path: { org } }, body: { id, description } })),
    onSuccess: () => { onSaved(); onClose() },
  })
  const errors = fieldErrors(save.error)
  return (
    <Dialog open title={envType ? `Edit “${envType.id}”` : 'New environment type'} onClose={onClose}>
      <form onSubmit={(e) => { e.preventDefault(); save.mutate() }}>
        <Field label="Id" hint="Lowercase letters, digits and dashes, e.g. production." error={errors.id}>
          {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} disabled={!!envType} required autoFocus />}
        </Field>
        <Field label="Description" error={errors.description}>
          {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        {save.isError && Object.keys(errors).length === 0 && <ProblemMessage error={save.error} />}
        <footer>
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="submit" className="primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save'}</button>
        </footer>
      </form>
    </Dialog>
  )
}
