import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Role, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, problemsByField } from '../components/ProblemMessage'
import { RoleBadge, RoleOptions } from '../components/Roles'
import { Time } from '../components/Time'
import { CreatedTokenDialog, NewTokenDialog, TokenTable, type CreatedToken } from '../components/Tokens'

type ServiceUser = Schemas['ServiceUserView']

/** Service users: accounts for automation, with their API tokens. Owners create, change and delete them. */
export function ServiceUsersPage() {
  const { org, can } = useOrg()
  const owner = can('owner')
  const key = listKeys.serviceUsers(org)
  const query = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/service-users', { params: { path: { org }, query: { limit: 500 } } })),
  })
  const client = useQueryClient()
  const [editing, setEditing] = useState<ServiceUser | 'new' | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  const refresh = () => client.invalidateQueries({ queryKey: key })
  const shown = selected && query.data?.items?.some((s) => s.id === selected) ? selected : null
  return (
    <>
      <PageHeader
        title="Service users"
        subtitle={
          <>
            Accounts for CI pipelines and other automation; they call the API with their tokens.
            {owner ? '' : ' Only owners can change service users.'}
          </>
        }>
        {owner && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            New service user
          </button>
        )}
      </PageHeader>
      <Async
        query={query}
        what="service users"
        isEmpty={(d) => !d.items?.length}
        empty={<>No service users yet.{owner ? ' Create one for each pipeline or tool that calls the API, e.g. “ci”.' : ''}</>}>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Id</th>
                <th>Role</th>
                <th>Description</th>
                <th>Created</th>
                {owner && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((s) => (
                <tr key={s.id} className={s.id === shown ? 'selected' : undefined}>
                  <td>
                    <code>{s.id}</code>
                  </td>
                  <td>
                    <RoleBadge role={s.role} />
                  </td>
                  <td>{s.description || <span className="muted">—</span>}</td>
                  <td>
                    <Time value={s.created_at} />
                  </td>
                  {owner && (
                    <td className="row-actions">
                      <button type="button" aria-pressed={s.id === shown} onClick={() => setSelected(s.id === shown ? null : s.id!)}>
                        {s.id === shown ? 'Hide tokens' : 'Tokens'}
                      </button>
                      <button type="button" onClick={() => setEditing(s)}>
                        Edit
                      </button>
                      <ConfirmButton
                        label="Delete"
                        ariaLabel={`Delete service user “${s.id}”`}
                        title={`Delete service user “${s.id}”?`}
                        onConfirm={async () => {
                          await unwrap(api.DELETE('/api/v1/orgs/{org}/service-users/{id}', { params: { path: { org, id: s.id! } } }))
                          if (s.id === selected) setSelected(null)
                          await refresh()
                        }}>
                        Its tokens stop working at once. This cannot be undone.
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {owner && shown && <ServiceUserTokens org={org} id={shown} />}
      {editing && (
        <ServiceUserDialog org={org} serviceUser={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={refresh} />
      )}
    </>
  )
}

function ServiceUserDialog({
  org,
  serviceUser,
  onClose,
  onSaved,
}: {
  org: string
  serviceUser: ServiceUser | null
  onClose: () => void
  onSaved: () => void
}) {
  const [id, setId] = useState(serviceUser?.id ?? '')
  const [role, setRole] = useState<Role>(serviceUser?.role ?? 'developer')
  const [description, setDescription] = useState(serviceUser?.description ?? '')
  const save = useMutation({
    mutationFn: () =>
      serviceUser
        ? unwrap(
            api.PUT('/api/v1/orgs/{org}/service-users/{id}', {
              params: { path: { org, id: serviceUser.id! } },
              body: { role, description, version: serviceUser.version },
            }),
          )
        : unwrap(api.POST('/api/v1/orgs/{org}/service-users', { params: { path: { org } }, body: { id, role, description } })),
    onSuccess: () => {
      onSaved()
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  return (
    <Dialog open title={serviceUser ? `Edit “${serviceUser.id}”` : 'New service user'} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <Field label="Id" hint="Lowercase letters, digits and dashes, e.g. ci." error={errors.id}>
          {(p) => (
            <input {...p} value={id} onChange={(e) => setId(e.target.value)} disabled={!!serviceUser} required autoFocus={!serviceUser} />
          )}
        </Field>
        <Field label="Role" hint="Give it the least it needs: developer is enough to deploy environments." error={errors.role}>
          {(p) => (
            <select {...p} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              <RoleOptions />
            </select>
          )}
        </Field>
        <Field label="Description" error={errors.description}>
          {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <FormProblem error={save.error} fields={['id', 'role', 'description']} />
        <DialogFooter label="Save" busyLabel="Saving…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

function ServiceUserTokens({ org, id }: { org: string; id: string }) {
  const key = listKeys.serviceUserTokens(org, id)
  const query = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api.GET('/api/v1/orgs/{org}/service-users/{id}/tokens', { params: { path: { org, id }, query: { limit: 500 } } })),
  })
  const client = useQueryClient()
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<CreatedToken | null>(null)
  const refresh = () => client.invalidateQueries({ queryKey: key })
  return (
    <section className="card" aria-labelledby="service-user-tokens-heading">
      <div className="section-header">
        <h2 id="service-user-tokens-heading">
          API tokens of <code>{id}</code>
        </h2>
        <div className="actions">
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New token
          </button>
        </div>
      </div>
      <TokenTable
        query={query}
        revocable
        empty={<>“{id}” has no tokens yet. Create one and store it in your pipeline’s secrets.</>}
        onRevoke={async (t) => {
          await unwrap(
            api.DELETE('/api/v1/orgs/{org}/service-users/{id}/tokens/{token_id}', {
              params: { path: { org, id, token_id: t.id! } },
            }),
          )
          await refresh()
        }}
      />
      {creating && (
        <NewTokenDialog
          title={`New token for “${id}”`}
          onClose={() => setCreating(false)}
          create={(body) => unwrap(api.POST('/api/v1/orgs/{org}/service-users/{id}/tokens', { params: { path: { org, id } }, body }))}
          onCreated={(t) => {
            setCreated(t)
            void refresh()
          }}
        />
      )}
      <CreatedTokenDialog token={created} onClose={() => setCreated(null)} />
    </section>
  )
}
