import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Navigate, useNavigate } from 'react-router'
import { api, unwrap } from '../api/client'
import { listKeys, useOrgs } from '../api/lists'
import { lastOrg } from '../auth/org'
import { useSession } from '../auth/session'
import { Loading } from '../components/Async'
import { DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { FormProblem, problemsByField } from '../components/ProblemMessage'

/** Sends the user to their last organization, or says how to get one. */
export function HomePage() {
  const session = useSession()
  const me = session.me!
  const orgs = useOrgs()
  if (orgs.isPending) return <Loading what="your organizations" />
  const all = (orgs.data?.items ?? []).map((o) => o.id!).filter(Boolean)
  const remembered = lastOrg()
  const target = remembered && all.includes(remembered) ? remembered : all[0]
  if (target) return <Navigate to={`/orgs/${target}/projects`} replace />
  return (
    <main className="sign-in" id="main">
      <h1>Welcome, {me.name}</h1>
      {me.instance_admin ? (
        <CreateFirstOrg />
      ) : (
        <p>
          You are not a member of any organization yet. Ask an owner to add you as <code>{me.name}</code>
          {me.email ? (
            <>
              {' '}
              or <code>{me.email}</code>
            </>
          ) : null}
          .
        </p>
      )}
      <button type="button" className="link" onClick={() => session.signOut()}>
        Sign out
      </button>
    </main>
  )
}

function CreateFirstOrg() {
  const navigate = useNavigate()
  return (
    <>
      <p>Create the first organization.</p>
      <OrgForm onCreated={(id) => navigate(`/orgs/${id}/projects`)} />
    </>
  )
}

/** Creates an organization (instance administrators). */
export function OrgForm({ onCreated, onCancel }: { onCreated: (id: string) => void; onCancel?: () => void }) {
  const client = useQueryClient()
  const session = useSession()
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const save = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/orgs', { body: { id, name: name || id } })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: listKeys.orgs() })
      await session.refreshMe()
      onCreated(id)
    },
  })
  const errors = problemsByField(save.error)
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        save.mutate()
      }}>
      <Field label="Id" hint="Lowercase letters, digits and dashes; used in URLs." error={errors.id}>
        {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} required autoFocus />}
      </Field>
      <Field label="Name" error={errors.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <FormProblem error={save.error} fields={['id', 'name']} />
      <DialogFooter label="Create organization" busy={save.isPending} onCancel={onCancel} />
    </form>
  )
}
