import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'react-router'
import { api, unwrap } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { PageHeader } from '../components/Layout'
import { CreatedTokenDialog, NewTokenDialog, TokenTable, type CreatedToken } from '../components/Tokens'

/** The signed-in user's own API tokens. */
export function TokensPage() {
  const { org } = useOrg()
  const key = listKeys.myTokens()
  const query = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/api/v1/tokens', { params: { query: { limit: 500 } } })),
  })
  const client = useQueryClient()
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<CreatedToken | null>(null)
  const refresh = () => client.invalidateQueries({ queryKey: key })
  return (
    <>
      <PageHeader
        title="My API tokens"
        subtitle="Tokens let scripts and command-line tools call the API as you, with your roles in every organization.">
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New token
        </button>
      </PageHeader>
      <p className="hint">
        Tokens of service users (for CI and other automation) are managed on the{' '}
        <Link to={`/orgs/${org}/service-users`}>Service users</Link> page.
      </p>
      <TokenTable
        query={query}
        revocable
        empty="You have no API tokens yet. Create one to use the API from a script or the command line."
        onRevoke={async (t) => {
          await unwrap(api.DELETE('/api/v1/tokens/{token_id}', { params: { path: { token_id: t.id! } } }))
          await refresh()
        }}
      />
      {creating && (
        <NewTokenDialog
          title="New API token"
          onClose={() => setCreating(false)}
          create={(body) => unwrap(api.POST('/api/v1/tokens', { body }))}
          onCreated={(t) => {
            setCreated(t)
            void refresh()
          }}
        />
      )}
      <CreatedTokenDialog token={created} onClose={() => setCreated(null)} />
    </>
  )
}
