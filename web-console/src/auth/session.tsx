import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { UserManager, WebStorageStateStore } from 'oidc-client-ts'
import { api, ApiError, configureAuth, unwrap, type Problem, type Schemas } from '../api/client'

const TOKEN_KEY = 'polystack.token'

export type Me = Schemas['MeView']
export type AuthConfig = Schemas['AuthConfig']

export interface Session {
  status: 'loading' | 'signed-out' | 'signed-in'
  config?: AuthConfig
  me?: Me
  /** How the current user signed in. */
  method?: 'token' | 'oidc'
  /** Why the last sign-in attempt or the session failed. */
  problem?: Problem
  signInWithToken(token: string): Promise<boolean>
  signInWithOidc(): Promise<void>
  completeOidcSignIn(): Promise<void>
  signOut(): Promise<void>
  refreshMe(): Promise<void>
}

export const SessionContext = createContext<Session | null>(null)

export function useSession(): Session {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession outside SessionProvider')
  return session
}

function userManagerFor(config: AuthConfig | undefined): UserManager | null {
  const oidc = config?.oidc
  if (!oidc?.issuer || !oidc.client_id) return null
  const base = `${window.location.origin}/console`
  return new UserManager({
    authority: oidc.issuer,
    client_id: oidc.client_id,
    redirect_uri: `${base}/callback`,
    post_logout_redirect_uri: `${base}/`,
    response_type: 'code',
    scope: oidc.scopes ?? 'openid profile email',
    automaticSilentRenew: true,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  })
}

async function fetchMe(): Promise<Me> {
  return unwrap(api.GET('/api/v1/me'))
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<Pick<Session, 'status' | 'config' | 'me' | 'method' | 'problem'>>({ status: 'loading' })
  const manager = useRef<UserManager | null>(null)

  const signedOut = useCallback((problem?: Problem) => {
    sessionStorage.removeItem(TOKEN_KEY)
    configureAuth(
      async () => null,
      () => {},
    )
    setState((s) => ({ status: 'signed-out', config: s.config, problem }))
  }, [])

  const expired = useCallback(() => {
    signedOut({ type: 'about:blank', title: 'Your session has ended', status: 401, detail: 'Sign in again to continue.' })
  }, [signedOut])

  const startWithToken = useCallback(
    async (token: string, config: AuthConfig | undefined) => {
      configureAuth(async () => token, expired)
      const me = await fetchMe()
      sessionStorage.setItem(TOKEN_KEY, token)
      setState({ status: 'signed-in', config, me, method: 'token' })
    },
    [expired],
  )

  const startWithOidc = useCallback(
    async (config: AuthConfig | undefined) => {
      const um = manager.current
      if (!um) return false
      const user = await um.getUser()
      if (!user || user.expired) return false
      configureAuth(async () => (await um.getUser())?.access_token ?? null, expired)
      const me = await fetchMe()
      setState({ status: 'signed-in', config, me, method: 'oidc' })
      return true
    },
    [expired],
  )

  useEffect(() => {
    let cancelled = false
    ;(async () => {
      let config: AuthConfig | undefined
      try {
        config = await unwrap(api.GET('/api/v1/auth/config'))
      } catch (e) {
        if (!cancelled) setState({ status: 'signed-out', problem: e instanceof ApiError ? e.problem : undefined })
        return
      }
      manager.current = userManagerFor(config)
      if (window.location.pathname.startsWith('/console/callback')) {
        if (!cancelled) setState({ status: 'signed-out', config })
        return
      }
      const token = sessionStorage.getItem(TOKEN_KEY)
      try {
        if (token) {
          await startWithToken(token, config)
          return
        }
        if (await startWithOidc(config)) return
      } catch (e) {
        if (!cancelled) signedOut(e instanceof ApiError ? e.problem : undefined)
        return
      }
      if (!cancelled) setState({ status: 'signed-out', config })
    })()
    return () => {
      cancelled = true
    }
  }, [startWithToken, startWithOidc, signedOut])

  const session = useMemo<Session>(
    () => ({
      ...state,
      async signInWithToken(token: string) {
        try {
          await startWithToken(token.trim(), state.config)
          return true
        } catch (e) {
          signedOut(e instanceof ApiError ? e.problem : undefined)
          return false
        }
      },
      async signInWithOidc() {
        await manager.current?.signinRedirect()
      },
      async completeOidcSignIn() {
        const um = manager.current
        if (!um) throw new Error('Sign-in with the identity provider is not configured on this server')
        await um.signinRedirectCallback()
        try {
          await startWithOidc(state.config)
        } catch (e) {
          signedOut(e instanceof ApiError ? e.problem : undefined)
        }
      },
      async signOut() {
        const method = state.method
        signedOut()
        if (method === 'oidc' && manager.current) {
          await manager.current.removeUser()
        }
      },
      async refreshMe() {
        const me = await fetchMe()
        setState((s) => ({ ...s, me }))
      },
    }),
    [state, startWithToken, startWithOidc, signedOut],
  )

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
}
