import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api, unwrap, type Schemas } from '../../api/client'
import { listKeys, useEnvironments, useProjects, useResourceTypes } from '../../api/lists'
import { useOrg } from '../../auth/org'
import { Loading } from '../../components/Async'
import { Field } from '../../components/Field'
import { ProblemMessage } from '../../components/ProblemMessage'

type Explanation = Schemas['Explanation']

interface Question {
  project: string
  env: string
  type: string
  resourceClass: string
  id: string
}

/** Asks the API which module and runner a resource would get in an environment, and shows every rule it considered. */
export function RuleExplainer() {
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
    queryKey: listKeys.explain(org, asked),
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
