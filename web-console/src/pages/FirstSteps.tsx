import { useQueries, useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { api, unwrap } from '../api/client'
import { listKeys, useEnvTypes, useModuleRules, useModules, useProjects, useResourceTypes, useRunnerRules, useRunners } from '../api/lists'
import { useOrg } from '../auth/org'

interface Step {
  label: string
  why: string
  to: string
  done: boolean
}

/**
 * What a new organization needs, in the order it needs it. Shown while it has no runners, no modules or
 * no environments; each step is done once its object exists.
 */
export function FirstSteps() {
  const { org, can } = useOrg()
  const envTypes = useEnvTypes(org)
  const resourceTypes = useResourceTypes(org)
  const modules = useModules(org)
  const moduleRules = useModuleRules(org)
  const runners = useRunners(org)
  const runnerRules = useRunnerRules(org)
  const projects = useProjects(org)
  const environments = useQueries({
    queries: (projects.data?.items ?? []).map((p) => ({
      queryKey: listKeys.environments(org, p.id!),
      queryFn: () =>
        unwrap(
          api.GET('/api/v1/orgs/{org}/projects/{project}/envs', {
            params: { path: { org, project: p.id! }, query: { limit: 500 } },
          }),
        ),
    })),
  })
  const firstEnvironment = environments.flatMap((q, i) =>
    (q.data?.items ?? []).map((e) => ({ project: projects.data!.items![i].id!, env: e.id! })),
  )[0]
  const deployments = useQuery({
    queryKey: listKeys.firstDeployment(org, firstEnvironment?.project, firstEnvironment?.env),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments', {
          params: { path: { org, project: firstEnvironment!.project, env: firstEnvironment!.env }, query: { limit: 1 } },
        }),
      ),
    enabled: firstEnvironment !== undefined,
  })
  const lists = [envTypes, resourceTypes, modules, moduleRules, runners, runnerRules, projects, ...environments]
  if (lists.some((q) => q.isPending || q.isError)) return null
  const has = (q: { data?: { items?: unknown[] } }) => (q.data?.items?.length ?? 0) > 0
  const hasEnvironment = firstEnvironment !== undefined
  if (has(runners) && has(modules) && hasEnvironment) return null

  const steps: Step[] = [
    {
      label: 'Create an environment type',
      why: 'such as development or production; every environment has one',
      to: 'env-types',
      done: has(envTypes),
    },
    {
      label: 'Define a resource type',
      why: 'what developers may ask for in a manifest, such as postgres',
      to: 'resource-types',
      done: has(resourceTypes),
    },
    { label: 'Add a module', why: 'the OpenTofu code that provisions a resource type', to: 'modules', done: has(modules) },
    { label: 'Add a module rule', why: 'which module provisions a resource type, and where', to: 'rules', done: has(moduleRules) },
    { label: 'Register a runner', why: 'an agent in your network that runs OpenTofu for Polystack', to: 'runners', done: has(runners) },
    { label: 'Add a runner rule', why: 'which runner runs which resources', to: 'rules', done: has(runnerRules) },
    { label: 'Create a project and an environment', why: 'where an application runs', to: 'projects', done: hasEnvironment },
    {
      label: 'Submit a manifest and deploy',
      why: 'what the environment needs; Polystack picks the modules and runners',
      to: firstEnvironment ? `projects/${firstEnvironment.project}/envs/${firstEnvironment.env}` : 'projects',
      done: has(deployments),
    },
  ]
  const next = steps.find((s) => !s.done)
  return (
    <section className="card first-steps" aria-labelledby="first-steps-heading">
      <h2 id="first-steps-heading">First steps</h2>
      <p className="muted">
        {steps.filter((s) => s.done).length} of {steps.length} done.
        {!can('platform-engineer') && ' The first six are for a platform engineer of the organization.'}
      </p>
      <ol className="checklist">
        {steps.map((s) => (
          <li key={s.label} className={s.done ? 'done' : s === next ? 'next' : undefined} aria-current={s === next ? 'step' : undefined}>
            <span aria-hidden="true" className="check">
              {s.done ? '✓' : '○'}
            </span>
            <span className="sr-only">{s.done ? 'Done: ' : 'To do: '}</span>
            <Link to={`/orgs/${org}/${s.to}`}>{s.label}</Link> <span className="muted small">— {s.why}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}
