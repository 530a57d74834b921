import { Managed } from '../components/Managed'
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import { useId, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { api, unwrap, type Schemas } from '../api/client'
import {
  listKeys,
  useEnvTypes,
  useEnvironments,
  useModuleRules,
  useModules,
  useProjects,
  useResourceTypes,
  useRunnerRules,
  useRunners,
} from '../api/lists'
import { useOrg } from '../auth/org'
import { Async, Loading } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { Dialog } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { fieldErrors, ProblemMessage } from '../components/ProblemMessage'
import { Tabs } from '../components/Tabs'
import { Time } from '../components/Time'

type ModuleRule = Schemas['ModuleRuleView']
type RunnerRule = Schemas['RunnerRuleView']
type Explanation = Schemas['Explanation']
type Page<T> = { items?: T[] }
type Named = { id?: string; description?: string }

// ---------------------------------------------------------------- the lists rules refer to

const explainKey = (org: string) => ['org', org, 'explain']

/** Only the criteria that are set: an empty one means "any". */
function criteria<T extends Record<string, string>>(values: T): Partial<T> {
  const result: Partial<T> = {}
  for (const [k, v] of Object.entries(values) as [keyof T, string][]) {
    if (v.trim()) result[k] = v.trim() as T[keyof T]
  }
  return result
}

/** A rule's criterion, or "any" when it does not set it. */
function Criterion({ value }: { value?: string }) {
  return value ? <code>{value}</code> : <span className="muted">any</span>
}

// ---------------------------------------------------------------- page

/** Module rules and runner rules, and why a resource gets the module and runner it gets. */
export function RulesPage() {
  const { can } = useOrg()
  const editable = can('platform-engineer')
  const [tab, setTab] = useState('module-rules')
  return (
    <>
      <PageHeader
        title="Rules"
        subtitle={
          <>
            Module rules choose the module that provisions a resource; runner rules choose the runner that runs it. Of the rules that match,
            the most specific wins. A rule without criteria applies everywhere.
          </>
        }
      />
      <Tabs
        tabs={[
          { id: 'module-rules', label: 'Module rules' },
          { id: 'runner-rules', label: 'Runner rules' },
        ]}
        active={tab}
        onChange={setTab}>
        {tab === 'module-rules' ? <ModuleRules editable={editable} /> : <RunnerRules editable={editable} />}
      </Tabs>
      <Explainer />
    </>
  )
}

// ---------------------------------------------------------------- module rules

function ModuleRules({ editable }: { editable: boolean }) {
  const { org } = useOrg()
  const query = useModuleRules(org)
  const modules = useModules(org)
  const typeOf = new Map((modules.data?.items ?? []).map((m) => [m.id, m.resource_type]))
  const [creating, setCreating] = useState(false)
  const client = useQueryClient()
  const changed = async () => {
    await client.invalidateQueries({ queryKey: listKeys.moduleRules(org) })
    await client.invalidateQueries({ queryKey: explainKey(org) })
  }
  return (
    <section aria-labelledby="module-rules-heading">
      <div className="section-header">
        <div>
          <h2 id="module-rules-heading">Module rules</h2>
          <p className="muted">Which module provisions resources of its module’s type, by class, id, project and environment.</p>
        </div>
        {editable && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New module rule
          </button>
        )}
      </div>
      <Async
        query={query}
        what="module rules"
        isEmpty={(d) => !d.items?.length}
        empty={
          <>
            No module rules yet: resources cannot get a module.
            {editable ? ' Create a rule for each module, e.g. one without criteria as the default.' : ''}
          </>
        }>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Module</th>
                <th>Resource class</th>
                <th>Resource id</th>
                <th>Project</th>
                <th>Environment type</th>
                <th>Environment</th>
                <th>Created</th>
                {editable && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/orgs/${org}/modules/${r.module_id}`}>
                      <code>{r.module_id}</code>
                    </Link>{' '}
                    <Managed item={r} />
                    {typeOf.get(r.module_id) && <div className="hint">for {typeOf.get(r.module_id)}</div>}
                    {!r.resource_class && !r.resource_id && !r.project_id && !r.env_type_id && !r.env_id && (
                      <div className="hint">no criteria: applies everywhere</div>
                    )}
                  </td>
                  <td>
                    <Criterion value={r.resource_class} />
                  </td>
                  <td>
                    <Criterion value={r.resource_id} />
                  </td>
                  <td>
                    <Criterion value={r.project_id} />
                  </td>
                  <td>
                    <Criterion value={r.env_type_id} />
                  </td>
                  <td>
                    <Criterion value={r.env_id} />
                  </td>
                  <td>
                    <Time value={r.created_at} />
                  </td>
                  {editable && (
                    <td className="row-actions">
                      <ConfirmButton
                        label="Delete"
                        ariaLabel={`Delete this rule for module “${r.module_id}”`}
                        title={`Delete this rule for module “${r.module_id}”?`}
                        onConfirm={async () => {
                          await unwrap(
                            api.DELETE('/api/v1/orgs/{org}/module-rules/{rule_id}', { params: { path: { org, rule_id: r.id! } } }),
                          )
                          await changed()
                        }}>
                        <RuleSummary rule={r} />
                        Resources it matched are matched against the remaining rules at their next manifest or deployment.
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {creating && <ModuleRuleDialog org={org} onClose={() => setCreating(false)} onSaved={changed} />}
    </section>
  )
}

function RuleSummary({ rule }: { rule: ModuleRule | RunnerRule }) {
  const set = Object.entries(rule).filter(
    ([k, v]) => v && ['resource_class', 'resource_id', 'project_id', 'env_type_id', 'env_id', 'resource_type'].includes(k),
  )
  return (
    <p>
      {set.length === 0 ? (
        'It sets no criteria and applies everywhere.'
      ) : (
        <>
          It applies where{' '}
          {set.map(([k, v], i) => (
            <span key={k}>
              {i > 0 && ', '}
              <code>{k}</code> is <code>{String(v)}</code>
            </span>
          ))}
          .
        </>
      )}
    </p>
  )
}

function ModuleRuleDialog({ org, onClose, onSaved }: { org: string; onClose: () => void; onSaved: () => Promise<unknown> }) {
  const modules = useModules(org)
  const projects = useProjects(org)
  const envTypes = useEnvTypes(org)
  const [moduleId, setModuleId] = useState('')
  const [form, setForm] = useState({ resource_class: '', resource_id: '', project_id: '', env_type_id: '', env_id: '' })
  const set = (k: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [k]: value }))
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/module-rules', {
          params: { path: { org } },
          body: { module_id: moduleId, ...criteria(form) },
        }),
      ),
    onSuccess: async () => {
      await onSaved()
      onClose()
    },
  })
  const errors = fieldErrors(save.error)
  return (
    <Dialog open title="New module rule" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <Choice
          label="Module"
          value={moduleId}
          onChange={setModuleId}
          query={modules}
          required
          error={errors.module_id}
          describe={(m) => `${m.id} (${m.resource_type})`}
          hint="The rule applies to resources of this module’s type."
          none="There are no modules yet; create one first."
        />
        <p className="hint">
          Criteria are optional; an empty one matches anything. The rule that sets the most specific matching criteria wins.
        </p>
        <div className="grid-2">
          <Text
            label="Resource class"
            value={form.resource_class}
            onChange={set('resource_class')}
            error={errors.resource_class}
            placeholder="any"
            hint="e.g. large"
          />
          <Text
            label="Resource id"
            value={form.resource_id}
            onChange={set('resource_id')}
            error={errors.resource_id}
            placeholder="any"
            hint="e.g. shared.db or checkout.db"
          />
          <Choice
            label="Project"
            value={form.project_id}
            onChange={set('project_id')}
            query={projects}
            any="Any project"
            error={errors.project_id}
          />
          <Choice
            label="Environment type"
            value={form.env_type_id}
            onChange={set('env_type_id')}
            query={envTypes}
            any="Any environment type"
            error={errors.env_type_id}
          />
        </div>
        <EnvironmentText org={org} project={form.project_id} value={form.env_id} onChange={set('env_id')} error={errors.env_id} />
        {save.isError && Object.keys(errors).length === 0 && <ProblemMessage error={save.error} />}
        <footer>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Creating…' : 'Create rule'}
          </button>
        </footer>
      </form>
    </Dialog>
  )
}

// ---------------------------------------------------------------- runner rules

function RunnerRules({ editable }: { editable: boolean }) {
  const { org } = useOrg()
  const query = useRunnerRules(org)
  const [creating, setCreating] = useState(false)
  const client = useQueryClient()
  const changed = async () => {
    await client.invalidateQueries({ queryKey: listKeys.runnerRules(org) })
    await client.invalidateQueries({ queryKey: explainKey(org) })
  }
  return (
    <section aria-labelledby="runner-rules-heading">
      <div className="section-header">
        <div>
          <h2 id="runner-rules-heading">Runner rules</h2>
          <p className="muted">Which runner runs the jobs of resources, by project, environment, resource type and class.</p>
        </div>
        {editable && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New runner rule
          </button>
        )}
      </div>
      <Async
        query={query}
        what="runner rules"
        isEmpty={(d) => !d.items?.length}
        empty={
          <>
            No runner rules yet: no runner will get jobs.{editable ? ' Create one without criteria to send every job to one runner.' : ''}
          </>
        }>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>Runner</th>
                <th>Project</th>
                <th>Environment type</th>
                <th>Environment</th>
                <th>Resource type</th>
                <th>Resource class</th>
                <th>Created</th>
                {editable && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((r) => (
                <tr key={r.id}>
                  <td>
                    <code>{r.runner_id}</code> <Managed item={r} />
                    {!r.project_id && !r.env_type_id && !r.env_id && !r.resource_type && !r.resource_class && (
                      <div className="hint">no criteria: applies everywhere</div>
                    )}
                  </td>
                  <td>
                    <Criterion value={r.project_id} />
                  </td>
                  <td>
                    <Criterion value={r.env_type_id} />
                  </td>
                  <td>
                    <Criterion value={r.env_id} />
                  </td>
                  <td>
                    <Criterion value={r.resource_type} />
                  </td>
                  <td>
                    <Criterion value={r.resource_class} />
                  </td>
                  <td>
                    <Time value={r.created_at} />
                  </td>
                  {editable && (
                    <td className="row-actions">
                      <ConfirmButton
                        label="Delete"
                        ariaLabel={`Delete this rule for runner “${r.runner_id}”`}
                        title={`Delete this rule for runner “${r.runner_id}”?`}
                        onConfirm={async () => {
                          await unwrap(
                            api.DELETE('/api/v1/orgs/{org}/runner-rules/{rule_id}', { params: { path: { org, rule_id: r.id! } } }),
                          )
                          await changed()
                        }}>
                        <RuleSummary rule={r} />
                        Jobs queued from now on go to the runner of the remaining rules.
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
      {creating && <RunnerRuleDialog org={org} onClose={() => setCreating(false)} onSaved={changed} />}
    </section>
  )
}

function RunnerRuleDialog({ org, onClose, onSaved }: { org: string; onClose: () => void; onSaved: () => Promise<unknown> }) {
  const runners = useRunners(org)
  const projects = useProjects(org)
  const envTypes = useEnvTypes(org)
  const resourceTypes = useResourceTypes(org)
  const [runnerId, setRunnerId] = useState('')
  const [form, setForm] = useState({ project_id: '', env_type_id: '', env_id: '', resource_type: '', resource_class: '' })
  const set = (k: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [k]: value }))
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/orgs/{org}/runner-rules', {
          params: { path: { org } },
          body: { runner_id: runnerId, ...criteria(form) },
        }),
      ),
    onSuccess: async () => {
      await onSaved()
      onClose()
    },
  })
  const errors = fieldErrors(save.error)
  return (
    <Dialog open title="New runner rule" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <Choice
          label="Runner"
          value={runnerId}
          onChange={setRunnerId}
          query={runners}
          required
          error={errors.runner_id}
          none="There are no runners yet; register one first."
        />
        <p className="hint">
          Criteria are optional; an empty one matches anything. The rule that sets the most specific matching criteria wins.
        </p>
        <div className="grid-2">
          <Choice
            label="Project"
            value={form.project_id}
            onChange={set('project_id')}
            query={projects}
            any="Any project"
            error={errors.project_id}
          />
          <Choice
            label="Environment type"
            value={form.env_type_id}
            onChange={set('env_type_id')}
            query={envTypes}
            any="Any environment type"
            error={errors.env_type_id}
          />
          <Choice
            label="Resource type"
            value={form.resource_type}
            onChange={set('resource_type')}
            query={resourceTypes}
            any="Any resource type"
            error={errors.resource_type}
          />
          <Text
            label="Resource class"
            value={form.resource_class}
            onChange={set('resource_class')}
            error={errors.resource_class}
            placeholder="any"
            hint="e.g. large"
          />
        </div>
        <EnvironmentText org={org} project={form.project_id} value={form.env_id} onChange={set('env_id')} error={errors.env_id} />
        {save.isError && Object.keys(errors).length === 0 && <ProblemMessage error={save.error} />}
        <footer>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Creating…' : 'Create rule'}
          </button>
        </footer>
      </form>
    </Dialog>
  )
}

// ---------------------------------------------------------------- form pieces

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

/** An environment id, with the chosen project's environments as suggestions. */
function EnvironmentText({
  org,
  project,
  value,
  onChange,
  error,
}: {
  org: string
  project: string
  value: string
  onChange: (value: string) => void
  error?: string
}) {
  const envs = useEnvironments(org, project)
  const listId = useId()
  return (
    <Field
      label="Environment"
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

// ---------------------------------------------------------------- explainer

interface Question {
  project: string
  env: string
  type: string
  resourceClass: string
  id: string
}

/** Asks the API which module and runner a resource would get in an environment, and shows every rule it considered. */
function Explainer() {
  const { org } = useOrg()
  const projects = useProjects(org)
  const resourceTypes = useResourceTypes(org)
  const [project, setProject] = useState('')
  const [env, setEnv] = useState('')
  const [type, setType] = useState('')
  const [resourceClass, setResourceClass] = useState('default')
  const [id, setId] = useState('')
  const envs = useEnvironments(org, project)
  const [asked, setAsked] = useState<Question | null>(null)
  const explain = useQuery({
    queryKey: [...explainKey(org), asked],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/explain', {
          params: {
            path: { org, project: asked!.project, env: asked!.env },
            query: { type: asked!.type, class: asked!.resourceClass, id: asked!.id },
          },
        }),
      ),
    enabled: asked != null,
  })
  const ask = () => {
    const question = { project, env, type, resourceClass: resourceClass.trim() || 'default', id: id.trim() }
    if (asked && JSON.stringify(asked) === JSON.stringify(question)) void explain.refetch()
    else setAsked(question)
  }
  const envItems = envs.data?.items ?? []
  return (
    <section className="explainer" aria-labelledby="explain-heading">
      <h2 id="explain-heading">Which module and runner would this resource get, and why?</h2>
      <p className="muted">Pick an environment and describe a resource as a manifest would; nothing is changed.</p>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault()
          ask()
        }}>
        <Field label="Project">
          {(p) => (
            <select
              {...p}
              value={project}
              required
              disabled={projects.isPending}
              onChange={(e) => {
                setProject(e.target.value)
                setEnv('')
              }}>
              <option value="" disabled>
                {projects.isPending ? 'Loading…' : 'Choose…'}
              </option>
              {(projects.data?.items ?? []).map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name ? `${x.name} (${x.id})` : x.id}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Environment">
          {(p) => (
            <select {...p} value={env} required disabled={!project || envs.isPending} onChange={(e) => setEnv(e.target.value)}>
              <option value="" disabled>
                {!project
                  ? 'Pick a project first'
                  : envs.isPending
                    ? 'Loading…'
                    : envItems.length === 0
                      ? 'It has no environments'
                      : 'Choose…'}
              </option>
              {envItems.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.env_type_id ? `${x.id} (${x.env_type_id})` : x.id}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Resource type">
          {(p) => (
            <select {...p} value={type} required disabled={resourceTypes.isPending} onChange={(e) => setType(e.target.value)}>
              <option value="" disabled>
                {resourceTypes.isPending ? 'Loading…' : 'Choose…'}
              </option>
              {(resourceTypes.data?.items ?? []).map((x) => (
                <option key={x.id} value={x.id}>
                  {x.id}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Class">
          {(p) => <input {...p} value={resourceClass} onChange={(e) => setResourceClass(e.target.value)} placeholder="default" />}
        </Field>
        <Field label="Resource id">
          {(p) => <input {...p} value={id} onChange={(e) => setId(e.target.value)} placeholder="e.g. shared.db" required />}
        </Field>
        <button type="submit" className="primary" disabled={explain.isFetching}>
          {explain.isFetching ? 'Explaining…' : 'Explain'}
        </button>
      </form>
      {projects.isError && <ProblemMessage error={projects.error} onRetry={() => projects.refetch()} />}
      {envs.isError && <ProblemMessage error={envs.error} onRetry={() => envs.refetch()} />}
      {resourceTypes.isError && <ProblemMessage error={resourceTypes.error} onRetry={() => resourceTypes.refetch()} />}
      {asked &&
        (explain.isPending ? (
          <Loading what="the explanation" />
        ) : explain.isError ? (
          <ProblemMessage error={explain.error} onRetry={() => explain.refetch()} />
        ) : (
          <div className="explanation">
            <p>
              A <code>{explain.data.resource?.type}</code> of class <code>{explain.data.resource?.resource_class}</code> with id{' '}
              <code>{explain.data.resource?.id}</code> in{' '}
              <code>
                {asked.project}/{asked.env}
              </code>
              {explain.data.module?.context?.env_type_id && (
                <>
                  {' '}
                  (environment type <code>{explain.data.module.context.env_type_id}</code>)
                </>
              )}
              :
            </p>
            <ExplanationCard title="Module" noun="module" type={explain.data.resource?.type} explanation={explain.data.module} />
            <ExplanationCard title="Runner" noun="runner" type={explain.data.resource?.type} explanation={explain.data.runner} />
          </div>
        ))}
    </section>
  )
}

function ExplanationCard({ title, noun, type, explanation }: { title: string; noun: string; type?: string; explanation?: Explanation }) {
  const headingId = useId()
  const candidates = explanation?.candidates ?? []
  // rules of another resource type never apply: listed apart, folded away
  const own = candidates.filter((c) => c.same_type !== false)
  const others = candidates.filter((c) => c.same_type === false)
  return (
    <section className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {explanation?.chosen ? (
        <p>
          <span className="badge ok">✓ chosen</span> <code>{explanation.chosen}</code>
          {explanation.winner && (
            <>
              , by rule <code title={explanation.winner}>{shortId(explanation.winner)}</code>
            </>
          )}
          .
        </p>
      ) : (
        <div className="problem">
          <strong>No {noun} can be chosen</strong>
          <p>{explanation?.error ?? `No ${noun} rule matches.`}</p>
        </div>
      )}
      {candidates.length === 0 ? (
        <p className="muted">There are no {noun} rules to consider.</p>
      ) : (
        <>
          {own.length === 0 ? (
            <p className="muted">
              No {noun} rule is for {type ? <code>{type}</code> : 'this resource type'}.
            </p>
          ) : (
            <Candidates
              caption={`${title} rules for ${type ?? 'this resource type'}`}
              title={title}
              winner={explanation?.winner}
              rows={own}
            />
          )}
          {others.length > 0 && (
            <details className="other-types">
              <summary>Rules for other resource types ({others.length})</summary>
              <Candidates caption={`${title} rules for other resource types`} title={title} rows={others} />
            </details>
          )}
        </>
      )}
    </section>
  )
}

type Candidate = NonNullable<Explanation['candidates']>[number]

/** Rules considered, each with whether it matched and why; of one that did not, the criterion that failed first stands out. */
function Candidates({ caption, title, winner, rows }: { caption: string; title: string; winner?: string; rows: Candidate[] }) {
  return (
    <table aria-label={caption}>
      <thead>
        <tr>
          <th>{title}</th>
          <th>Matched</th>
          <th>Why</th>
          <th>Specificity</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c, i) => {
          const won = !!winner && c.rule_id === winner
          const failedFirst = c.matched ? -1 : (c.reasons ?? []).findIndex((r) => r.includes(' ≠ ') || r.startsWith('applies to another'))
          return (
            <tr key={c.rule_id ?? i} className={won ? 'selected' : undefined}>
              <td>
                <code>{c.target}</code> {won && <span className="badge ok">winner</span>}
                {c.rule_id && (
                  <div className="hint">
                    rule <span title={c.rule_id}>{shortId(c.rule_id)}</span>
                  </div>
                )}
              </td>
              <td>{c.matched ? <span className="badge ok">✓ matches</span> : <span className="badge bad">✗ does not match</span>}</td>
              <td>
                {c.reasons?.length ? (
                  <ul className="reasons">
                    {c.reasons.map((r, j) => (
                      <li key={j} className={j === failedFirst ? 'failed-first' : undefined}>
                        {r}
                        {j === failedFirst && <span className="sr-only"> (fails first)</span>}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td>
                {c.specificity?.length ? (
                  c.specificity.map((s, j) => (
                    <span key={s}>
                      {j > 0 && ', '}
                      <code>{s}</code>
                    </span>
                  ))
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id
}
