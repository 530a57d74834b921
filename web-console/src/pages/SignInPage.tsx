import { useState } from 'react'
import { ApiError } from '../api/client'
import { useSession } from '../auth/session'
import { Field } from '../components/Field'
import { ProblemMessage } from '../components/ProblemMessage'

/** Sign in with the identity provider (when the server has one) or an API token. */
export function SignInPage() {
  const session = useSession()
  const [token, setToken] = useState('')
  const [busy, setBusy] = useState(false)
  const oidc = session.config?.oidc
  return (
    <main className="sign-in" id="main">
      <h1>Polystack</h1>
      <p className="muted">Sign in to configure platforms and deploy environments.</p>
      {session.problem && <ProblemMessage error={new ApiError(session.problem)} />}
      {oidc?.issuer && (
        <section aria-labelledby="oidc-title">
          <h2 id="oidc-title">With your company account</h2>
          <button type="button" className="primary wide" onClick={() => session.signInWithOidc()}>
            Sign in with {new URL(oidc.issuer).host}
          </button>
        </section>
      )}
      <section aria-labelledby="token-title">
        <h2 id="token-title">With an API token</h2>
        <form
          onSubmit={async (e) => {
            e.preventDefault()
            setBusy(true)
            await session.signInWithToken(token)
            setBusy(false)
          }}>
          <Field
            label="API token"
            hint={
              <>
                A <code>pst_…</code> token. The instance administrator's is in <code>~/.polystack/admin-token</code>.
              </>
            }>
            {(props) => (
              <input {...props} type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} required />
            )}
          </Field>
          <button type="submit" className={oidc?.issuer ? undefined : 'primary'} disabled={busy || !token.trim()}>
            {busy ? 'Signing in…' : 'Sign in with token'}
          </button>
        </form>
      </section>
    </main>
  )
}
