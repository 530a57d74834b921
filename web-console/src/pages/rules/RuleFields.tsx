import type { UseQueryResult } from '@tanstack/react-query'
import { useId, type ComponentType, type ReactNode } from 'react'
import { useEnvTypes, useEnvironments, useModules, useProjects, useResourceTypes, useRunners } from '../../api/lists'
import { Field } from '../../components/Field'
import { ProblemMessage } from '../../components/ProblemMessage'

/*
 * The fields of the rule dialog: the rule's target (a module or a runner) and its criteria. Each field
 * that picks from one of the organization's lists loads that list itself.
 */

type Page<T> = { items?: T[] }
type Named = { id?: string; description?: string }

/** The criteria a rule can set; a kind of rule sets some of them. */
export type Criterion = 'resource_class' | 'resource_id' | 'project_id' | 'env_type_id' | 'env_id' | 'resource_type'

/** A criterion's name, as a column title and as a label. */
export const CRITERION_TITLES: Record<Criterion, string> = {
  resource_class: 'Resource class',
  resource_id: 'Resource id',
  project_id: 'Project',
  env_type_id: 'Environment type',
  env_id: 'Environment',
  resource_type: 'Resource type',
}

/** What a field of the dialog is given. */
export interface RuleFieldProps {
  org: string
  value: string
  onChange: (value: string) => void
  error?: string
}

/** A select filled from a list; `any` adds an empty first choice that stands for "any". */
function Choice<T extends Named>({
  label,
  value,
  onChange,
  query,
  any,
  required,
  error,
  hint,
  none,
  describe,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  query: UseQueryResult<Page<T>>
  any?: string
  required?: boolean
  error?: string
  hint?: ReactNode
  none?: string
  describe?: (item: T) => string
}) {
  const items = query.data?.items ?? []
  const shownHint = query.isError ? undefined : query.isSuccess && items.length === 0 && none ? none : hint
  return (
    <>
      <Field label={label} hint={shownHint} error={error}>
        {(p) => (
          <select {...p} value={value} onChange={(e) => onChange(e.target.value)} required={required} disabled={query.isPending}>
            {query.isPending && <option value="">Loading…</option>}
            {!query.isPending &&
              (any != null ? (
                <option value="">{any}</option>
              ) : (
                <option value="" disabled>
                  Choose…
                </option>
              ))}
            {items.map((i) => (
              <option key={i.id} value={i.id}>
                {describe ? describe(i) : i.id}
              </option>
            ))}
          </select>
        )}
      </Field>
      {query.isError && <ProblemMessage error={query.error} onRetry={() => query.refetch()} />}
    </>
  )
}

function Text({
  label,
  value,
  onChange,
  error,
  hint,
  placeholder,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  hint?: ReactNode
  placeholder?: string
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(p) => <input {...p} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} />}
    </Field>
  )
}

// ---------------------------------------------------------------- targets

/** The module a module rule chooses. */
export function ModuleChoice({ org, value, onChange, error }: RuleFieldProps) {
  const modules = useModules(org)
  return (
    <Choice
      label="Module"
      value={value}
      onChange={onChange}
      query={modules}
      required
      error={error}
      describe={(m) => `${m.id} (${m.resource_type})`}
      hint="The rule applies to resources of this module’s type."
      none="There are no modules yet; create one first."
    />
  )
}

/** The runner a runner rule chooses. */
export function RunnerChoice({ org, value, onChange, error }: RuleFieldProps) {
  const runners = useRunners(org)
  return (
    <Choice
      label="Runner"
      value={value}
      onChange={onChange}
      query={runners}
      required
      error={error}
      none="There are no runners yet; register one first."
    />
  )
}

// ---------------------------------------------------------------- criteria

function ResourceClassField({ value, onChange, error }: RuleFieldProps) {
  return (
    <Text label={CRITERION_TITLES.resource_class} value={value} onChange={onChange} error={error} placeholder="any" hint="e.g. large" />
  )
}

function ResourceIdField({ value, onChange, error }: RuleFieldProps) {
  return (
    <Text
      label={CRITERION_TITLES.resource_id}
      value={value}
      onChange={onChange}
      error={error}
      placeholder="any"
      hint="e.g. shared.db or checkout.db"
    />
  )
}

function ProjectField({ org, value, onChange, error }: RuleFieldProps) {
  const projects = useProjects(org)
  return <Choice label={CRITERION_TITLES.project_id} value={value} onChange={onChange} query={projects} any="Any project" error={error} />
}

function EnvTypeField({ org, value, onChange, error }: RuleFieldProps) {
  const envTypes = useEnvTypes(org)
  return (
    <Choice
      label={CRITERION_TITLES.env_type_id}
      value={value}
      onChange={onChange}
      query={envTypes}
      any="Any environment type"
      error={error}
    />
  )
}

function ResourceTypeField({ org, value, onChange, error }: RuleFieldProps) {
  const resourceTypes = useResourceTypes(org)
  return (
    <Choice
      label={CRITERION_TITLES.resource_type}
      value={value}
      onChange={onChange}
      query={resourceTypes}
      any="Any resource type"
      error={error}
    />
  )
}

/** The field of each criterion but the environment, which comes below them: its suggestions depend on the project. */
export const CRITERION_FIELDS: Record<Exclude<Criterion, 'env_id'>, ComponentType<RuleFieldProps>> = {
  resource_class: ResourceClassField,
  resource_id: ResourceIdField,
  project_id: ProjectField,
  env_type_id: EnvTypeField,
  resource_type: ResourceTypeField,
}

/** An environment id, with the chosen project's environments as suggestions. */
export function EnvironmentField({ org, project, value, onChange, error }: RuleFieldProps & { project: string }) {
  const envs = useEnvironments(org, project)
  const listId = useId()
  return (
    <Field
      label={CRITERION_TITLES.env_id}
      error={error}
      hint={
        project
          ? `An environment of ${project}, e.g. prod; empty = any environment.`
          : 'An environment id such as prod, in any project; empty = any environment.'
      }>
      {(p) => (
        <>
          <input {...p} value={value} onChange={(e) => onChange(e.target.value)} placeholder="any" list={project ? listId : undefined} />
          {project && (
            <datalist id={listId}>
              {(envs.data?.items ?? []).map((e) => (
                <option key={e.id} value={e.id} />
              ))}
            </datalist>
          )}
        </>
      )}
    </Field>
  )
}
