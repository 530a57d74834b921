import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap, type Role, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async, Empty } from '../components/Async'
import { PageHeader } from '../components/Layout'
import { ProblemMessage } from '../components/ProblemMessage'
import { RoleOptions } from '../components/Roles'

type GroupMapping = Schemas['GroupMapping']

/** The OIDC groups that make people members, each with the role it gives (owners only). */
export function GroupMappingsPage() {
  const { org, can } = useOrg()
  const owner = can('owner')
  return (
    <>
      <PageHeader
        title="OIDC group mappings"
        subtitle={
          <>
            People who sign in with the identity provider and are in one of these groups become members with its role. Memberships that come
            from groups follow the groups at each sign-in: when someone leaves a group, or its mapping is removed here, their membership
            changes the next time they sign in. Members added by hand stay as they are.
          </>
        }
      />
      {owner ? <GroupMappings org={org} /> : <Empty>Only owners can see and change the group mappings.</Empty>}
    </>
  )
}

function GroupMappings({ org }: { org: string }) {
  const query = useQuery({
    queryKey: listKeys.groupMappings(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/oidc-group-mappings', { params: { path: { org } } })),
  })
  return (
    <Async query={query} what="group mappings">
      {(data) => <GroupMappingsForm org={org} initial={data.mappings ?? []} />}
    </Async>
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
      return client.invalidateQueries({ queryKey: listKeys.groupMappings(org) })
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
