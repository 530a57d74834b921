import { Managed } from '../components/Managed'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'react-router'
import { listKeys, useModules } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { Dialog } from '../components/Dialog'
import { PageHeader } from '../components/Layout'
import { Time } from '../components/Time'
import { ModuleForm } from './ModuleForm'

/** Modules: the OpenTofu code that provisions resources of a type, each change a new version. */
export function ModulesPage() {
  const { org, can } = useOrg()
  const key = listKeys.modules(org)
  const query = useModules(org)
  const [creating, setCreating] = useState(false)
  const client = useQueryClient()
  const editable = can('platform-engineer')
  return (
    <>
      <PageHeader
        title="Modules"
        subtitle="OpenTofu modules that provision resources of a type; module rules choose which one a resource gets. Every change makes a new version.">
        {editable && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New module
          </button>
        )}
      </PageHeader>
      <Async
        query={query}
        what="modules"
        isEmpty={(d) => !d.items?.length}
        empty={
          <>
            No modules yet.
            {editable ? ' Create one for a resource type, then add a module rule so resources get it.' : ' A platform engineer adds them.'}
          </>
        }>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Id</th>
                <th>Resource type</th>
                <th>Version</th>
                <th>Source</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {data.items!.map((m) => (
                <tr key={m.id}>
                  <td>
                    <Link to={`/orgs/${org}/modules/${m.id}`}>{m.id}</Link> <Managed item={m} />
                  </td>
                  <td>
                    <code>{m.resource_type}</code>
                  </td>
                  <td>v{m.version}</td>
                  <td className="source-address">
                    {m.module_source === 'inline' ? <span className="badge calm">inline</span> : <code>{m.module_source}</code>}
                  </td>
                  <td>
                    <Time value={m.updated_at ?? m.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      <Dialog open={creating} wide title="New module" onClose={() => setCreating(false)}>
        <ModuleForm
          org={org}
          module={null}
          onCancel={() => setCreating(false)}
          onSaved={() => {
            setCreating(false)
            return client.invalidateQueries({ queryKey: key })
          }}
        />
      </Dialog>
    </>
  )
}
