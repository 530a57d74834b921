import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Role, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { useSession } from '../auth/session'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, ProblemMessage, problemsByField } from '../components/ProblemMessage'
import { RoleBadge, RoleOptions } from '../components/Roles'
import { Time } from '../components/Time'

type Member = Schemas['MemberView']

/** The organization's members: people and their role here. Owners add and remove them and change their roles. */
export function MembersPage() {
  const { org, can } = useOrg()
  const owner = can('owner')
  const query = useQuery({
    queryKey: listKeys.members(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/members', { params: { path: { org }, query: { limit: 500 } } })),
  })
  const client = useQueryClient()
  const [adding, setAdding] = useState(false)
  const refresh = () => client.invalidateQueries({ queryKey: listKeys.members(org) })
  return (
    <>
      <PageHeader
        title="Members"
        subtitle={
          <>
            People and their role here: viewer &lt; developer &lt; platform engineer &lt; owner.
            {owner ? '' : ' Only owners can change members.'}
          </>
        }>
        {owner && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add member
          </button>
        )}
      </PageHeader>
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
    </>
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
  const errors = problemsByField(save.error)
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
        <FormProblem error={save.error} fields={['username', 'email', 'role']} />
        <DialogFooter label="Add member" busyLabel="Adding…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}
