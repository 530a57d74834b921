import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { useSession } from '../auth/session'
import { Loading } from '../components/Async'
import { ProblemMessage } from '../components/ProblemMessage'

/** Where the identity provider sends the browser back with the authorization code. */
export function CallbackPage() {
  const session = useSession()
  const navigate = useNavigate()
  const [error, setError] = useState<unknown>(null)
  const started = useRef(false)
  useEffect(() => {
    if (session.status === 'loading' || started.current) return
    started.current = true
    session.completeOidcSignIn().then(() => navigate('/', { replace: true }), setError)
  }, [session, navigate])
  if (error) {
    return (
      <main className="sign-in" id="main">
        <ProblemMessage error={error} />
        <a href="/console/">Back to sign-in</a>
      </main>
    )
  }
  return <Loading what="your session" />
}
