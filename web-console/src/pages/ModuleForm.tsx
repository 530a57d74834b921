import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent, type ReactNode } from 'react'
import { api, unwrap, type Schemas } from '../api/client'
import { useResourceTypes } from '../api/lists'
import { CodeEditor, type LineProblem } from '../components/CodeEditor'
import { DialogFooter } from '../components/Dialog'
import { Field } from '../components/Field'
import { FormProblem, problemsByField } from '../components/ProblemMessage'
import {
  isJsonObject,
  JsonField,
  jsonText,
  KeyValueRows,
  lineOf,
  mapOf,
  parseJsonObject,
  rowsOf,
  rowsProblem,
  type JsonObject,
  type KeyValueRow,
} from '../components/forms'

/* The module form: creating a module, or its next version. */

type ModuleView = Schemas['ModuleView']
type ModuleRequest = Schemas['ModuleRequest']

const PARAM_TYPES = ['string', 'number', 'bool', 'list', 'map', 'any']
const JSON_FIELDS = ['module_params', 'module_inputs', 'provider_mapping', 'dependencies'] as const
type JsonFieldName = (typeof JSON_FIELDS)[number]
const FIELDS = ['id', 'resource_type', 'module_source', 'module_source_code', ...JSON_FIELDS, 'secret_inputs']

interface ModuleDraft {
  id: string
  resourceType: string
  source: string
  code: string
  json: Record<JsonFieldName, string>
  secrets: KeyValueRow[]
}

function draftOf(module: ModuleView | null): ModuleDraft {
  return {
    id: module?.id ?? '',
    resourceType: module?.resource_type ?? '',
    source: module?.module_source ?? 'inline',
    code: module?.module_source_code ?? '',
    json: {
      module_params: jsonText(module?.module_params),
      module_inputs: jsonText(module?.module_inputs),
      provider_mapping: jsonText(module?.provider_mapping),
      dependencies: jsonText(module?.dependencies),
    },
    secrets: rowsOf(module?.secret_inputs, true),
  }
}

/** Checks the shape of each JSON field beyond "is an object", at the line of the entry that is wrong. */
function shapeProblem(field: JsonFieldName, value: JsonObject, text: string): LineProblem | undefined {
  for (const [name, entry] of Object.entries(value)) {
    const at = (message: string) => ({ line: lineOf(text, name), message: `${name}: ${message}` })
    if (field === 'module_params') {
      if (!isJsonObject(entry) || !PARAM_TYPES.includes(String(entry.type))) {
        return at(`must be {"type": …} with a type of ${PARAM_TYPES.join(', ')}`)
      }
    } else if (field === 'provider_mapping') {
      if (typeof entry !== 'string') return at('must name a provider as "type.id", e.g. "aws.default"')
    } else if (field === 'dependencies') {
      if (!isJsonObject(entry) || typeof entry.type !== 'string') return at('must be {"type": "<resource type>", …}')
    }
  }
  return undefined
}

interface Checked {
  body?: ModuleRequest
  problems: Partial<Record<JsonFieldName, LineProblem>>
  errors: Record<string, string>
}

/** The request a draft makes, or the problems that keep it from being sent. */
function check(draft: ModuleDraft, module: ModuleView | null): Checked {
  const problems: Checked['problems'] = {}
  const values: Partial<Record<JsonFieldName, JsonObject>> = {}
  for (const field of JSON_FIELDS) {
    const parsed = parseJsonObject(draft.json[field])
    const problem = parsed.problem ?? (parsed.value && shapeProblem(field, parsed.value, draft.json[field]))
    if (problem) problems[field] = problem
    else values[field] = parsed.value ?? {}
  }
  const errors: Record<string, string> = {}
  const inline = draft.source.trim() === 'inline'
  if (inline && !draft.code.trim())
    errors.module_source_code = 'Write the module’s code, or give the address of a module instead of “inline”.'
  const secretsProblem = rowsProblem(draft.secrets, 'secret input')
  if (secretsProblem) errors.secret_inputs = secretsProblem
  if (Object.keys(problems).length || Object.keys(errors).length) return { problems, errors }
  const body: ModuleRequest = {
    module_source: draft.source.trim(),
    module_source_code: inline ? draft.code : undefined,
    module_params: values.module_params as ModuleRequest['module_params'],
    module_inputs: values.module_inputs as ModuleRequest['module_inputs'],
    provider_mapping: values.provider_mapping as ModuleRequest['provider_mapping'],
    dependencies: values.dependencies as ModuleRequest['dependencies'],
    secret_inputs: mapOf(draft.secrets),
  }
  return {
    body: module ? { ...body, version: module.version } : { id: draft.id, resource_type: draft.resourceType, ...body },
    problems,
    errors,
  }
}

/**
 * Creates a module (its version 1), or, given one, makes its next version: every save of a module
 * is a new immutable version with the full definition.
 */
export function ModuleForm({
  org,
  module,
  onCancel,
  onSaved,
}: {
  org: string
  module: ModuleView | null
  onCancel: () => void
  onSaved: (saved: ModuleView) => void
}) {
  const [draft, setDraft] = useState(() => draftOf(module))
  const [checked, setChecked] = useState<Omit<Checked, 'body'>>({ problems: {}, errors: {} })
  // a new version keeps its resource type: the list is only needed for a new module
  const resourceTypes = useResourceTypes(org, !module)
  const save = useMutation({
    mutationFn: (body: ModuleRequest) =>
      module
        ? unwrap(api.PUT('/api/v1/orgs/{org}/modules/{module}', { params: { path: { org, module: module.id! } }, body }))
        : unwrap(api.POST('/api/v1/orgs/{org}/modules', { params: { path: { org } }, body })),
    onSuccess: onSaved,
  })
  const server = problemsByField(save.error)
  const errors = { ...server, ...checked.errors }
  const set = (change: Partial<ModuleDraft>) => setDraft((d) => ({ ...d, ...change }))
  const setJson = (field: JsonFieldName) => (text: string) => {
    setDraft((d) => ({ ...d, json: { ...d.json, [field]: text } }))
    setChecked((c) => (c.problems[field] ? { ...c, problems: { ...c.problems, [field]: undefined } } : c))
  }
  const inline = draft.source.trim() === 'inline'

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const result = check(draft, module)
    setChecked({ problems: result.problems, errors: result.errors })
    if (result.body) save.mutate(result.body)
  }

  const jsonField = (field: JsonFieldName, label: string, hint: ReactNode) => (
    <JsonField
      label={label}
      hint={hint}
      value={draft.json[field]}
      onChange={setJson(field)}
      problem={checked.problems[field]}
      error={server[field]}
      minHeight="5rem"
    />
  )

  return (
    <form onSubmit={submit}>
      <div className="grid-2">
        <Field label="Id" hint="Lowercase letters, digits and dashes, e.g. postgres-rds." error={errors.id}>
          {(p) => (
            <input {...p} value={draft.id} onChange={(e) => set({ id: e.target.value })} disabled={!!module} required autoFocus={!module} />
          )}
        </Field>
        <Field
          label="Resource type"
          hint="What this module provisions."
          error={
            errors.resource_type ??
            (resourceTypes.isError ? `The resource types cannot be loaded: ${resourceTypes.error.message}` : undefined)
          }>
          {(p) => (
            <select {...p} value={draft.resourceType} onChange={(e) => set({ resourceType: e.target.value })} disabled={!!module} required>
              {module ? (
                <option value={draft.resourceType}>{draft.resourceType}</option>
              ) : (
                <>
                  <option value="">{resourceTypes.isPending ? 'Loading…' : 'Choose a resource type'}</option>
                  {resourceTypes.data?.items?.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.id}
                    </option>
                  ))}
                </>
              )}
            </select>
          )}
        </Field>
      </div>
      <Field
        label="Module source"
        error={errors.module_source}
        hint={
          <>
            <code>inline</code> for code written below, or an OpenTofu module address such as{' '}
            <code>git::https://example.com/modules.git//rds?ref=v1.2.0</code>.
          </>
        }>
        {(p) => <input {...p} value={draft.source} onChange={(e) => set({ source: e.target.value })} required spellCheck={false} />}
      </Field>
      {inline && (
        <Field
          label="Module source code"
          error={errors.module_source_code}
          hint="HCL (or JSON): a variable per input and an output per output of the resource type.">
          {(p) => (
            <CodeEditor
              label="Module source code"
              value={draft.code}
              onChange={(code) => set({ code })}
              minHeight="10rem"
              describedBy={p['aria-describedby']}
              invalid={p['aria-invalid']}
            />
          )}
        </Field>
      )}
      {jsonField(
        'module_params',
        'Params',
        <>
          What developers may give in manifests: <code>{'{"version": {"type": "string", "is_optional": true, "description": "…"}}'}</code>.
          Types: {PARAM_TYPES.join(', ')}.
        </>,
      )}
      {jsonField(
        'module_inputs',
        'Inputs',
        <>
          The module’s variables. Strings may hold placeholders such as <code>{'${context.env_id}'}</code>,{' '}
          <code>{'${resource.params.version}'}</code> or <code>{'${resources.net.outputs.subnet_id}'}</code>.
        </>,
      )}
      {jsonField(
        'provider_mapping',
        'Provider mapping',
        <>
          Provider local name → Polystack provider <code>type.id</code>, e.g. <code>{'{"aws": "aws.default"}'}</code>.
        </>,
      )}
      {jsonField(
        'dependencies',
        'Dependencies',
        <>
          Resources provisioned first, by alias: <code>{'{"net": {"type": "vpc", "class": "default", "id": "shared.vpc"}}'}</code>.
        </>,
      )}
      <KeyValueRows
        legend="Secret inputs"
        secret
        rows={draft.secrets}
        onChange={(secrets) => set({ secrets })}
        keyLabel="Secret input name"
        valueLabel="Secret input value"
        addLabel="Add secret input"
        empty="No secret inputs. Passwords and keys the module needs go here, encrypted and never shown again."
        hint="Write-only: stored values are never shown. Replace one to change it; a removed row is deleted."
        error={errors.secret_inputs}
      />
      <FormProblem error={save.error} fields={FIELDS} />
      <DialogFooter
        label={module ? `Save as version ${(module.version ?? 0) + 1}` : 'Create module'}
        busyLabel="Saving…"
        busy={save.isPending}
        onCancel={onCancel}
      />
    </form>
  )
}
