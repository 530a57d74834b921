import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Role, type Schemas } from '../api/client'
import { useOrg } from '../auth/org'
import { ROLE_LABELS, ROLES } from '../auth/roles'
import { useSession } from '../auth/session'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { Dialog } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { fieldErrors, ProblemMessage } from '../components/ProblemMessage'
import { Tabs } from '../components/Tabs'
import { Time } from '../components/Time'
import { CreatedTokenDialog, NewTokenDialog, TokenTable, type CreatedToken } from '../components/Tokens'

type Member = Schemas['MemberView']
type ServiceUser = Schemas['ServiceUserView']
type GroupMapping = Schemas['GroupMapping']

/** Members, service users and their tokens, and the OIDC groups that make people members. */
export function MembersPage() {
  const { can } = useOrg()
  const owner = can('owner')
  const [tab, setTab] = useState('members')
  const tabs = [
    { id: 'members', label: 'Members' },
    { id: 'service-users', label: 'Service users' },
    ...(owner ? [{ id: 'groups', label: 'OIDC group mappings' }] : []),
  ]
  return (
    <>
      <PageHeader
        title="Members & service users"
        subtitle={
          owner
            ? 'Who may do what in this organization.'
            : 'Who may do what in this organization. Only owners can change members and service users.'
        }
      />
      <Tabs tabs={tabs} active={tab} onChange={setTab}>
        {tab === 'members' && <Members owner={owner} />}
        {tab === 'service-users' && <ServiceUsers owner={owner} />}
        {tab === 'groups' && owner && <GroupMappings />}
      </Tabs>
    </>
  )
}

function RoleOptions() {
  return (
    <>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABELS[r]}
        </option>
      ))}
    </>
  )
}

function RoleBadge({ role }: { role: Role | undefined }) {
  return <span className="badge calm">{role ? ROLE_LABELS[role] : 'unknown'}</span>
}

// ---------------------------------------------------------------- members

function Members({ owner }: { owner: boolean }) {
  const { org } = useOrg()
  const key = ['org', org, 'members']
  const query = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/members', { params: { path: { org }, query: { limit: 500 } } })),
  })
  const client = useQueryClient()
  const [adding, setAdding] = useState(false)
  const refresh = () => client.invalidateQueries({ queryKey: key })
  return (
    <section aria-labelledby="members-heading">
      <div className="section-header">
        <div>
          <h2 id="members-heading">Members</h2>
          <p className="muted">People and their role here: viewer &lt; developer &lt; platform engineer &lt; owner.</p>
        </div>
        {owner && (
          <div className="actions">
            <button type="button" className="primary" onClick={() => setAdding(true)}>
              Add member
            </button>
          </div>
        )}
      </div>
      <Async
        query={query}
        what="members"
        isEmpty={(d) => !d.items?.length}
        empty={<>This organization has no members yet.{owner ? ' Add people by their username or email.' : ''}</>}>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Username</th>
                <th>Email</th>
                <th>Role</th>
                <th>Added</th>
                {owner && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((m) => (
                <MemberRow key={m.username} org={org} member={m} owner={owner} onChanged={refresh} />
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {adding && <AddMemberDialog org={org} onClose={() => setAdding(false)} onSaved={refresh} />}
    </section>
  )
}

function MemberRow({ org, member, owner, onChanged }: { org: string; member: Member; owner: boolean; onChanged: () => Promise<unknown> }) {
  const { me } = useSession()
  const [draft, setDraft] = useState<Role | null>(null)
  const role = draft ?? member.role
  const save = useMutation({
    mutationFn: (next: Role) =>
      unwrap(
        api.PUT('/api/v1/orgs/{org}/members/{username}', {
          params: { path: { org, username: member.username! } },
          body: { role: next, version: member.version },
        }),
      ),
    onSuccess: async () => {
      await onChanged()
      setDraft(null)
    },
  })
  const changed = draft != null && draft !== member.role
  const self = member.username === me?.name
  return (
    <>
      <tr>
        <td>
          {member.username}
          {self && <span className="muted"> (you)</span>}
          {member.source === 'oidc' && (
            <div>
              <span className="badge wait" title="Follows the user's identity-provider groups at each sign-in">
                from group
              </span>
            </div>
          )}
        </td>
        <td>{member.email || <span className="muted">—</span>}</td>
        <td>
          {owner ? (
            <div className="actions">
              <select
                className="inline-select"
                aria-label={`Role of ${member.username}`}
                value={role}
                onChange={(e) => {
                  save.reset()
                  setDraft(e.target.value as Role)
                }}>
                <RoleOptions />
              </select>
              {changed && (
                <>
                  <button
                    type="button"
                    className="primary"
                    disabled={save.isPending}
                    onClick={() => {
                      if (draft) save.mutate(draft)
                    }}>
                    {save.isPending ? 'Saving…' : 'Save role'}
                  </button>
                  <button
                    type="button"
                    onClick={() => {
                      save.reset()
                      setDraft(null)
                    }}>
                    Undo
                  </button>
                  {self && member.role === 'owner' && <span className="hint">You will no longer be an owner.</span>}
                </>
              )}
            </div>
          ) : (
            <RoleBadge role={member.role} />
          )}
        </td>
        <td>
          <Time value={member.created_at} />
        </td>
        {owner && (
          <td className="row-actions">
            <ConfirmButton
              label="Remove"
              title={`Remove ${member.username} from “${org}”?`}
              onConfirm={async () => {
                await unwrap(api.DELETE('/api/v1/orgs/{org}/members/{username}', { params: { path: { org, username: member.username! } } }))
                await onChanged()
              }}>
              {self ? 'You will lose access to this organization. ' : ''}
              Their API tokens stop working here. An organization always keeps at least one owner.
            </ConfirmButton>
          </td>
        )}
      </tr>
      {save.isError && (
        <tr>
          <td colSpan={owner ? 5 : 4}>
            <ProblemMessage error={save.error} />
          </td>
        </tr>
      )}
    </>
  )
}

function AddMemberDialog({ org, onClose, onSaved }: { org: string; onClose: () => void; onSaved: () => void }) {
  const [username, setUsername] = useState('')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('developer')
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/members', {
          params: { path: { org } },
          body: { role, ...(username.trim() ? { username: username.trim() } : {}), ...(email.trim() ? { email: email.trim() } : {}) },
        }),
      ),
    onSuccess: () => {
      onSaved()
      onClose()
    },
  })
  const errors = fieldErrors(save.error)
  return (
    <Dialog open title="Add member" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <p className="hint">
          People can be added before they ever sign in: when they first sign in with this username or email, they get this membership.
        </p>
        <Field label="Username" hint="Their username at sign-in; a new user is created if nobody has it yet." error={errors.username}>
          {(p) => (
            <input
              {...p}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              autoFocus
              required={!email.trim()}
              autoComplete="off"
            />
          )}
        </Field>
        <Field label="Email" hint="Optional with a username. Alone, it finds someone who has already signed in." error={errors.email}>
          {(p) => <input {...p} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />}
        </Field>
        <Field label="Role" error={errors.role}>
          {(p) => (
            <select {...p} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              <RoleOptions />
            </select>
          )}
        </Field>
        {save.isError && Object.keys(errors).length === 0 && <ProblemMessage error={save.error} />}
        <footer>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Adding…' : 'Add member'}
          </button>
        </footer>
      </form>
    </Dialog>
  )
}

// ---------------------------------------------------------------- service users

function ServiceUsers({ owner }: { owner: boolean }) {
  const { org } = useOrg()
  const key = ['org', org, 'service-users']
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
    <section aria-labelledby="service-users-heading">
      <div className="section-header">
        <div>
          <h2 id="service-users-heading">Service users</h2>
          <p className="muted">Accounts for CI pipelines and other automation; they call the API with their tokens.</p>
        </div>
        {owner && (
          <div className="actions">
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              New service user
            </button>
          </div>
        )}
      </div>
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
    </section>
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
  const errors = fieldErrors(save.error)
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
        {save.isError && Object.keys(errors).length === 0 && <ProblemMessage error={save.error} />}
        <footer>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
        </footer>
      </form>
    </Dialog>
  )
}

function ServiceUserTokens({ org, id }: { org: string; id: string }) {
  const key = ['org', org, 'service-users', id, 'tokens']
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
        <h3 id="service-user-tokens-heading">
          API tokens of <code>{id}</code>
        </h3>
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

// ---------------------------------------------------------------- OIDC group mappings

function GroupMappings() {
  const { org } = useOrg()
  const key = ['org', org, 'oidc-group-mappings']
  const query = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/oidc-group-mappings', { params: { path: { org } } })),
  })
  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading">OIDC group mappings</h2>
      <p className="muted">
        People who sign in with the identity provider and are in one of these groups become members with its role. Memberships that come
        from groups follow the groups at each sign-in: when someone leaves a group, or its mapping is removed here, their membership changes
        the next time they sign in. Members added by hand stay as they are.
      </p>
      <Async query={query} what="group mappings">
        {(data) => <GroupMappingsForm org={org} initial={data.mappings ?? []} />}
      </Async>
    </section>
  )
}

interface MappingRow extends GroupMapping {
  key: number
}

let nextRowKey = 0
const toRow = (m: GroupMapping): MappingRow => ({ group: m.group, role: m.role, key: nextRowKey++ })
const comparable = (ms: GroupMapping[]) => JSON.stringify(ms.map((m) => [m.group.trim(), m.role]))

function GroupMappingsForm({ org, initial }: { org: string; initial: GroupMapping[] }) {
  const [saved, setSaved] = useState<GroupMapping[]>(initial)
  const [rows, setRows] = useState<MappingRow[]>(() => initial.map(toRow))
  const client = useQueryClient()
  const filled = rows.filter((r) => r.group.trim())
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/v1/orgs/{org}/oidc-group-mappings', {
          params: { path: { org } },
          body: { mappings: filled.map((r) => ({ group: r.group.trim(), role: r.role })) },
        }),
      ),
    onSuccess: (answer) => {
      setSaved(answer.mappings)
      setRows(answer.mappings.map(toRow))
      return client.invalidateQueries({ queryKey: ['org', org, 'oidc-group-mappings'] })
    },
  })
  const update = (key: number, change: Partial<GroupMapping>) => {
    save.reset()
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...change } : r)))
  }
  const changed = comparable(filled) !== comparable(saved)
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        save.mutate()
      }}>
      {rows.length === 0 ? (
        <div className="empty">
          No groups are mapped: only members added by hand belong to this organization. Add a group to map it to a role.
        </div>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Group</th>
              <th>Role</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.key}>
                <td>
                  <input
                    aria-label={`Group ${i + 1}`}
                    value={r.group}
                    placeholder="e.g. acme-developers"
                    required
                    onChange={(e) => update(r.key, { group: e.target.value })}
                  />
                </td>
                <td>
                  <select
                    aria-label={`Role of group ${i + 1}`}
                    value={r.role}
                    onChange={(e) => update(r.key, { role: e.target.value as Role })}>
                    <RoleOptions />
                  </select>
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    aria-label={`Remove group ${r.group || i + 1}`}
                    onClick={() => {
                      save.reset()
                      setRows((rs) => rs.filter((x) => x.key !== r.key))
                    }}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {save.isError && <ProblemMessage error={save.error} />}
      {save.isSuccess && !changed && (
        <p className="muted" role="status">
          Saved. The mappings apply at each person’s next sign-in.
        </p>
      )}
      <footer className="actions mapping-actions">
        <button
          type="button"
          onClick={() => {
            save.reset()
            setRows((rs) => [...rs, toRow({ group: '', role: 'viewer' })])
          }}>
          Add group
        </button>
        <button type="submit" className="primary" disabled={save.isPending || !changed}>
          {save.isPending ? 'Saving…' : 'Save mappings'}
        </button>
        {changed && <span className="hint">Unsaved changes. Saving replaces all mappings with these.</span>}
      </footer>
    </form>
  )
}
