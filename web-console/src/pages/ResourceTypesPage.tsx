import { Managed } from '../components/Managed'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys, useResourceTypes } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import type { LineProblem } from '../components/CodeEditor'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, problemsByField } from '../components/ProblemMessage'
import { Time } from '../components/Time'
import { isJsonObject, JsonField, jsonText, parseJsonObject, prettyJson } from '../components/forms'

type ResourceType = Schemas['ResourceTypeView']

const NEW_SCHEMA = `{
  "type": "object",
  "required": [],
  "properties": {}
}
`

/** The outputs a schema declares, e.g. "host*, port" (* = required). */
function outputNames(schema: unknown): string {
  if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return ''
  const required = Array.isArray(schema.required) ? schema.required : []
  return Object.keys(schema.properties)
    .map((k) => (required.includes(k) ? `${k}*` : k))
    .join(', ')
}

/** Resource types: what developers can ask for in manifests, and the outputs their modules must report. */
export function ResourceTypesPage() {
  const { org, can } = useOrg()
  const key = listKeys.resourceTypes(org)
  const query = useResourceTypes(org)
  const [editing, setEditing] = useState<ResourceType | 'new' | null>(null)
  const client = useQueryClient()
  const editable = can('platform-engineer')
  return (
    <>
      <PageHeader
        title="Resource types"
        subtitle="What manifests can ask for (postgres, s3-bucket…) and the outputs every module of a type must report.">
        {editable && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            New resource type
          </button>
        )}
      </PageHeader>
      <Async
        query={query}
        what="resource types"
        isEmpty={(d) => !d.items?.length}
        empty={
          <>
            No resource types yet.
            {editable ? ' Create one such as “postgres”, then give it a module.' : ' A platform engineer defines them.'}
          </>
        }>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Id</th>
                <th>Description</th>
                <th>Developer accessible</th>
                <th>Outputs</th>
                <th>Created</th>
                {editable && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((t) => (
                <tr key={t.id}>
                  <td>
                    <code>{t.id}</code> <Managed item={t} />
                  </td>
                  <td>{t.description || <span className="muted">—</span>}</td>
                  <td>
                    {t.developer_accessible ? (
                      <span className="badge ok">yes</span>
                    ) : (
                      <span className="badge calm" title="Only as a dependency of a module">
                        no, dependency only
                      </span>
                    )}
                  </td>
                  <td>
                    <OutputSchema schema={t.output_schema} />
                  </td>
                  <td>
                    <Time value={t.created_at} />
                  </td>
                  {editable && (
                    <td>
                      <div className="row-actions">
                        <button type="button" onClick={() => setEditing(t)} aria-label={`Edit ${t.id}`}>
                          Edit
                        </button>
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete resource type “${t.id}”`}
                          title={`Delete resource type “${t.id}”?`}
                          onConfirm={async () => {
                            await unwrap(
                              api.DELETE('/api/v1/orgs/{org}/resource-types/{resource_type}', {
                                params: { path: { org, resource_type: t.id! } },
                              }),
                            )
                            await client.invalidateQueries({ queryKey: key })
                          }}>
                          Modules of this type and rules that name it keep it from being deleted.
                        </ConfirmButton>
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {editing && (
        <ResourceTypeDialog
          org={org}
          resourceType={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => client.invalidateQueries({ queryKey: key })}
        />
      )}
    </>
  )
}

function OutputSchema({ schema }: { schema: unknown }) {
  if (schema === undefined) return <span className="muted">any</span>
  const names = outputNames(schema)
  return (
    <details>
      <summary>{names || <span className="muted">any object</span>}</summary>
      <pre tabIndex={0}>{prettyJson(schema)}</pre>
    </details>
  )
}

function ResourceTypeDialog({
  org,
  resourceType,
  onClose,
  onSaved,
}: {
  org: string
  resourceType: ResourceType | null
  onClose: () => void
  onSaved: () => void
}) {
  const [id, setId] = useState(resourceType?.id ?? '')
  const [description, setDescription] = useState(resourceType?.description ?? '')
  const [accessible, setAccessible] = useState(resourceType?.developer_accessible ?? true)
  const [schema, setSchema] = useState(resourceType ? jsonText(resourceType.output_schema) : NEW_SCHEMA)
  const [schemaProblem, setSchemaProblem] = useState<LineProblem>()
  const save = useMutation({
    mutationFn: (outputSchema: unknown) => {
      const common = { description, developer_accessible: accessible, output_schema: outputSchema === undefined ? undefined : outputSchema }
      return resourceType
        ? unwrap(
            api.PUT('/api/v1/orgs/{org}/resource-types/{resource_type}', {
              params: { path: { org, resource_type: resourceType.id! } },
              body: { ...common, version: resourceType.version },
            }),
          )
        : unwrap(api.POST('/api/v1/orgs/{org}/resource-types', { params: { path: { org } }, body: { id, ...common } }))
    },
    onSuccess: () => {
      onSaved()
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const parsed = parseJsonObject(schema)
    setSchemaProblem(parsed.problem)
    if (!parsed.problem) save.mutate(parsed.value)
  }
  return (
    <Dialog open wide title={resourceType ? `Edit “${resourceType.id}”` : 'New resource type'} onClose={onClose}>
      <form onSubmit={submit}>
        <div className="grid-2">
          <Field label="Id" hint="Lowercase letters, digits and dashes, e.g. postgres." error={errors.id}>
            {(p) => (
              <input
                {...p}
                value={id}
                onChange={(e) => setId(e.target.value)}
                disabled={!!resourceType}
                required
                autoFocus={!resourceType}
              />
            )}
          </Field>
          <Field label="Description" error={errors.description}>
            {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} autoFocus={!!resourceType} />}
          </Field>
        </div>
        <label className="check">
          <input type="checkbox" checked={accessible} onChange={(e) => setAccessible(e.target.checked)} />
          Developers may ask for it in manifests (otherwise only modules can depend on it)
        </label>
        <JsonField
          label="Output schema"
          value={schema}
          onChange={(text) => {
            setSchema(text)
            setSchemaProblem(undefined)
          }}
          problem={schemaProblem}
          error={errors.output_schema}
          minHeight="14rem"
          hint={
            <>
              A JSON Schema of the outputs every module of this type must report, e.g.{' '}
              <code>{'{"type": "object", "required": ["host"], "properties": {"host": {"type": "string"}}}'}</code>. Empty: any object.
            </>
          }
        />
        <FormProblem error={save.error} fields={['id', 'description', 'output_schema']} />
        <DialogFooter label="Save" busyLabel="Saving…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}
