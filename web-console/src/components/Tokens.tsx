import { useMutation, type UseQueryResult } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import type { Schemas } from '../api/client'
import { Async } from './Async'
import { ConfirmButton, CopyButton } from './Buttons'
import { Dialog, DialogFooter } from './Dialog'
import { Field } from './Field'
import { FormProblem, problemsByField } from './ProblemMessage'
import { Time } from './Time'

/* API tokens: a list that never shows secrets, the dialog that creates one, and the one that shows it once. */

export type Token = Schemas['TokenView']
export type CreatedToken = Schemas['CreatedTokenView']
export type TokenRequest = Schemas['CreateTokenRequest']

/** The state of a token in words, with a colour that only repeats them. */
function TokenState({ token, now }: { token: Token; now: number }) {
  if (token.revoked_at)
    return (
      <>
        <span className="badge bad">revoked</span> <Time value={token.revoked_at} />
      </>
    )
  if (token.expires_at && new Date(token.expires_at).getTime() <= now) return <span className="badge calm">expired</span>
  return <span className="badge ok">active</span>
}

/** A list of API tokens (never their secrets: only the prefix that identifies them). */
export function TokenTable({
  query,
  revocable,
  onRevoke,
  empty,
}: {
  query: UseQueryResult<Schemas['PageTokenView']>
  revocable: boolean
  onRevoke: (token: Token) => Promise<unknown>
  empty: ReactNode
}) {
  // tokens are judged as of when the list was fetched, so rendering stays pure; every refetch judges them again
  const now = query.dataUpdatedAt
  return (
    <Async query={query} what="tokens" isEmpty={(d) => !d.items?.length} empty={empty}>
      {(data) => (
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Prefix</th>
              <th>Created</th>
              <th>Expires</th>
              <th>Last used</th>
              <th>State</th>
              {revocable && (
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {data.items!.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>
                  <code>{t.prefix}…</code>
                </td>
                <td>
                  <Time value={t.created_at} />
                </td>
                <td>{t.expires_at ? <Time value={t.expires_at} /> : <span className="muted">never</span>}</td>
                <td>{t.last_used_at ? <Time value={t.last_used_at} /> : <span className="muted">never</span>}</td>
                <td>
                  <TokenState token={t} now={now} />
                </td>
                {revocable && (
                  <td className="row-actions">
                    {!t.revoked_at && (
                      <ConfirmButton label="Revoke" title={`Revoke token “${t.name}”?`} onConfirm={() => onRevoke(t)}>
                        Anything that uses it stops working at once. This cannot be undone.
                      </ConfirmButton>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Async>
  )
}

/** The instant a token picked to expire on a day stops working: the end of that day, in the browser's time zone. */
export function endOfDay(date: string): string {
  return new Date(`${date}T23:59:59`).toISOString()
}

function today(): string {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** Asks for a token's name and optional expiry, and creates it. */
export function NewTokenDialog({
  title,
  create,
  onCreated,
  onClose,
  children,
}: {
  title: string
  create: (body: TokenRequest) => Promise<CreatedToken>
  onCreated: (token: CreatedToken) => void
  onClose: () => void
  children?: ReactNode
}) {
  const [name, setName] = useState('')
  const [expires, setExpires] = useState('')
  const save = useMutation({
    mutationFn: () => create(expires ? { name, expires_at: endOfDay(expires) } : { name }),
    // the answer holds the secret: keep it nowhere but in the dialog that shows it once
    gcTime: 0,
    onSuccess: (token) => {
      onCreated(token)
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  return (
    <Dialog open title={title} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        {children}
        <Field label="Name" hint="What it is for, e.g. laptop or deploy pipeline." error={errors.name}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} required autoFocus />}
        </Field>
        <Field
          label="Expires on"
          hint="Optional. It stops working at the end of this day; leave empty for a token that does not expire."
          error={errors.expires_at}>
          {(p) => <input {...p} type="date" min={today()} value={expires} onChange={(e) => setExpires(e.target.value)} />}
        </Field>
        <FormProblem error={save.error} fields={['name', 'expires_at']} />
        <DialogFooter label="Create token" busyLabel="Creating…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}

/** Shows a new token's secret, the only time it is ever shown. */
export function CreatedTokenDialog({ token, onClose }: { token: CreatedToken | null; onClose: () => void }) {
  return (
    <Dialog open={token != null} title={token ? `Token “${token.name}” created` : 'Token created'} onClose={onClose}>
      {token && (
        <div className="dialog-body">
          <div className="notice" role="status">
            <strong>Copy the token now: it will not be shown again.</strong> Polystack keeps only a hash of it. If you lose it, revoke it
            and create a new one.
          </div>
          <Field label="Token">
            {(p) => <input {...p} className="mono" readOnly value={token.token ?? ''} onFocus={(e) => e.target.select()} />}
          </Field>
          <div className="actions">
            <CopyButton text={token.token ?? ''} label="Copy token" />
            {token.expires_at && (
              <span className="muted">
                Expires <Time value={token.expires_at} />.
              </span>
            )}
          </div>
        </div>
      )}
      <DialogFooter label="I have copied it" onAction={onClose} />
    </Dialog>
  )
}
