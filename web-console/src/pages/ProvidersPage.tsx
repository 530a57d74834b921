import { Managed } from '../components/Managed'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys, useProviders } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import type { LineProblem } from '../components/CodeEditor'
import { Dialog, DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { FormProblem, problemsByField } from '../components/ProblemMessage'
import { Time } from '../components/Time'
import {
  isJsonObject,
  JsonField,
  jsonText,
  KeyValueRows,
  mapOf,
  parseJsonObject,
  prettyJson,
  rowsOf,
  rowsProblem,
  type KeyValueRow,
} from '../components/forms'

type Provider = Schemas['ProviderView']
type ProviderRequest = Schemas['ProviderRequest']

const FIELDS = ['provider_type', 'id', 'source', 'version_constraint', 'configuration', 'secrets']

/** Providers: OpenTofu provider configurations that modules map their providers to, with write-only secrets. */
export function ProvidersPage() {
  const { org, can } = useOrg()
  const key = listKeys.providers(org)
  const query = useProviders(org)
  const [editing, setEditing] = useState<Provider | 'new' | null>(null)
  const client = useQueryClient()
  const editable = can('platform-engineer')
  return (
    <>
      <PageHeader
        title="Providers"
        subtitle={
          <>
            Provider configurations modules map to as <code>type.id</code>, e.g. <code>aws.default</code>. Secret values are stored
            encrypted and never shown.
          </>
        }>
        {editable && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            New provider
          </button>
        )}
      </PageHeader>
      <Async
        query={query}
        what="providers"
        isEmpty={(d) => !d.items?.length}
        empty={
          <>
            No providers yet.
            {editable ? ' Add one such as aws.default so modules can map their providers to it.' : ' A platform engineer adds them.'}
          </>
        }>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Provider</th>
                <th>Source</th>
                <th>Version</th>
                <th>Configuration</th>
                <th>Secrets</th>
                <th>Updated</th>
                {editable && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((p) => {
                const name = `${p.provider_type}.${p.id}`
                return (
                  <tr key={name}>
                    <td>
                      <code>{name}</code> <Managed item={p} />
                    </td>
                    <td>
                      <code>{p.source}</code>
                    </td>
                    <td>{p.version_constraint ? <code>{p.version_constraint}</code> : <span className="muted">any</span>}</td>
                    <td>
                      <Configuration value={p.configuration} />
                    </td>
                    <td>
                      <SecretNames secrets={p.secrets} />
                    </td>
                    <td>
                      <Time value={p.updated_at ?? p.created_at} />
                    </td>
                    {editable && (
                      <td>
                        <div className="row-actions">
                          <button type="button" aria-label={`Edit ${name}`} onClick={() => setEditing(p)}>
                            Edit
                          </button>
                          <ConfirmButton
                            label="Delete"
                            ariaLabel={`Delete provider “${name}”`}
                            title={`Delete provider “${name}”?`}
                            onConfirm={async () => {
                              await unwrap(
                                api.DELETE('/api/v1/orgs/{org}/providers/{provider_type}/{id}', {
                                  params: { path: { org, provider_type: p.provider_type!, id: p.id! } },
                                }),
                              )
                              await client.invalidateQueries({ queryKey: key })
                            }}>
                            Its secrets are deleted with it. Modules that map a provider to it keep it from being deleted.
                          </ConfirmButton>
                        </div>
                      </td>
                    )}
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      </Async>
      {editing && (
        <ProviderDialog
          org={org}
          provider={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => client.invalidateQueries({ queryKey: key })}
        />
      )}
    </>
  )
}

function Configuration({ value }: { value: unknown }) {
  const keys = isJsonObject(value) ? Object.keys(value) : []
  if (keys.length === 0) return <span className="muted">—</span>
  return (
    <details>
      <summary>{keys.join(', ')}</summary>
      <pre tabIndex={0}>{prettyJson(value)}</pre>
    </details>
  )
}

/** The names of the secrets a provider has; their values are never shown. */
function SecretNames({ secrets }: { secrets?: Record<string, string> }) {
  const names = Object.keys(secrets ?? {})
  if (names.length === 0) return <span className="muted">none</span>
  return (
    <ul className="plain-list">
      {names.map((n) => (
        <li key={n}>
          <code>{n}</code> <span className="badge calm">set</span>
        </li>
      ))}
    </ul>
  )
}

function ProviderDialog({
  org,
  provider,
  onClose,
  onSaved,
}: {
  org: string
  provider: Provider | null
  onClose: () => void
  onSaved: () => void
}) {
  const [type, setType] = useState(provider?.provider_type ?? '')
  const [id, setId] = useState(provider?.id ?? '')
  const [source, setSource] = useState(provider?.source ?? '')
  const [constraint, setConstraint] = useState(provider?.version_constraint ?? '')
  const [configuration, setConfiguration] = useState(provider ? jsonText(provider.configuration) : '{}\n')
  const [secrets, setSecrets] = useState<KeyValueRow[]>(() => rowsOf(provider?.secrets, true))
  const [configurationProblem, setConfigurationProblem] = useState<LineProblem>()
  const [secretsProblem, setSecretsProblem] = useState<string>()
  const save = useMutation({
    mutationFn: (body: ProviderRequest) =>
      provider
        ? unwrap(
            api.PUT('/api/v1/orgs/{org}/providers/{provider_type}/{id}', {
              params: { path: { org, provider_type: provider.provider_type!, id: provider.id! } },
              body: { ...body, version: provider.version },
            }),
          )
        : unwrap(api.POST('/api/v1/orgs/{org}/providers', { params: { path: { org } }, body: { provider_type: type, id, ...body } })),
    onSuccess: () => {
      onSaved()
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const parsed = parseJsonObject(configuration)
    const rowsError = rowsProblem(secrets, 'secret')
    setConfigurationProblem(parsed.problem)
    setSecretsProblem(rowsError)
    if (parsed.problem || rowsError) return
    save.mutate({
      source: source.trim(),
      version_constraint: constraint.trim() || undefined,
      configuration: parsed.value ?? {},
      secrets: mapOf(secrets),
    })
  }
  return (
    <Dialog open wide title={provider ? `Edit “${provider.provider_type}.${provider.id}”` : 'New provider'} onClose={onClose}>
      <form onSubmit={submit}>
        <div className="grid-2">
          <Field label="Provider type" hint="The provider’s name in OpenTofu, e.g. aws, google, kubernetes." error={errors.provider_type}>
            {(p) => (
              <input {...p} value={type} onChange={(e) => setType(e.target.value)} disabled={!!provider} required autoFocus={!provider} />
            )}
          </Field>
          <Field label="Id" hint="Tells configurations of one type apart, e.g. default or eu-prod." error={errors.id}>
            {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} disabled={!!provider} required />}
          </Field>
          <Field label="Source" hint="Registry address, e.g. hashicorp/aws." error={errors.source}>
            {(p) => (
              <input {...p} value={source} onChange={(e) => setSource(e.target.value)} required spellCheck={false} autoFocus={!!provider} />
            )}
          </Field>
          <Field label="Version constraint" hint="e.g. ~> 5.0; empty for any version." error={errors.version_constraint}>
            {(p) => <input {...p} value={constraint} onChange={(e) => setConstraint(e.target.value)} spellCheck={false} />}
          </Field>
        </div>
        <JsonField
          label="Configuration"
          value={configuration}
          onChange={(text) => {
            setConfiguration(text)
            setConfigurationProblem(undefined)
          }}
          problem={configurationProblem}
          error={errors.configuration}
          hint={
            <>
              The provider block’s arguments, e.g. <code>{'{"region": "eu-west-1"}'}</code>. Values may hold placeholders such as{' '}
              <code>{'${context.env_id}'}</code>. Put credentials in secrets instead.
            </>
          }
        />
        <KeyValueRows
          legend="Secrets"
          secret
          rows={secrets}
          onChange={setSecrets}
          keyLabel="Secret name"
          valueLabel="Secret value"
          addLabel="Add secret"
          empty="No secrets. Credentials such as access keys go here: stored encrypted, never shown again."
          hint="Write-only: stored values are never shown. Replace one to change it; a removed row is deleted on save."
          error={secretsProblem ?? errors.secrets}
        />
        <FormProblem error={save.error} fields={FIELDS} />
        <DialogFooter label="Save" busyLabel="Saving…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}
