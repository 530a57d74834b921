import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from './client'

/*
 * The lists pages share, under one query key each, so that every page reads and invalidates the same
 * cache entry. Configuration lists are small: one page of up to 500.
 *
 * listKeys holds the query key of everything the console caches, not only these lists. Keys nest like
 * the API's paths, so that invalidating one also invalidates what lies below it: an environment's key is
 * a prefix of its manifest's and its deployments' keys.
 */

const ALL = { limit: 500 }

const orgKey = (org: string) => ['org', org]

export const listKeys = {
  orgs: () => ['orgs'],
  myTokens: () => ['me', 'tokens'],
  engine: () => ['admin', 'engine'],
  envTypes: (org: string) => [...orgKey(org), 'env-types'],
  resourceTypes: (org: string) => [...orgKey(org), 'resource-types'],
  modules: (org: string) => [...orgKey(org), 'modules'],
  module: (org: string, module: string) => [...listKeys.modules(org), module],
  moduleVersions: (org: string, module: string) => [...listKeys.module(org, module), 'versions'],
  runners: (org: string) => [...orgKey(org), 'runners'],
  providers: (org: string) => [...orgKey(org), 'providers'],
  projects: (org: string) => [...orgKey(org), 'projects'],
  project: (org: string, project: string) => [...listKeys.projects(org), project],
  environments: (org: string, project: string) => [...listKeys.project(org, project), 'envs'],
  environment: (org: string, project: string, env: string) => [...listKeys.environments(org, project), env],
  manifest: (org: string, project: string, env: string) => [...listKeys.environment(org, project, env), 'manifest'],
  resourceGraph: (org: string, project: string, env: string) => [...listKeys.environment(org, project, env), 'resource-graph'],
  deployments: (org: string, project: string, env: string) => [...listKeys.environment(org, project, env), 'deployments'],
  deployment: (org: string, project: string, env: string, id: string) => [...listKeys.deployments(org, project, env), id],
  deploymentGraph: (org: string, project: string, env: string, id: string) => [...listKeys.deployment(org, project, env, id), 'graph'],
  /** The newest deployment of the first environment, for the first steps. */
  firstDeployment: (org: string, project?: string, env?: string) => [...orgKey(org), 'first-steps', 'deployments', project, env],
  moduleRules: (org: string) => [...orgKey(org), 'module-rules'],
  runnerRules: (org: string) => [...orgKey(org), 'runner-rules'],
  /** Explanations of which module and runner a resource gets; without `question`, all of them. */
  explain: (org: string, question?: unknown) => [...orgKey(org), 'explain', ...(question === undefined ? [] : [question])],
  quotas: (org: string) => [...orgKey(org), 'quotas'],
  members: (org: string) => [...orgKey(org), 'members'],
  serviceUsers: (org: string) => [...orgKey(org), 'service-users'],
  serviceUserTokens: (org: string, id: string) => [...listKeys.serviceUsers(org), id, 'tokens'],
  groupMappings: (org: string) => [...orgKey(org), 'oidc-group-mappings'],
  webhooks: (org: string) => [...orgKey(org), 'webhooks'],
  webhookDeliveries: (org: string, webhook: string) => [...listKeys.webhooks(org), webhook, 'deliveries'],
  approvals: (org: string) => [...orgKey(org), 'approvals'],
  /** Audit events; without filters, those of every filter. */
  auditEvents: (org: string, ...filters: unknown[]) => [...orgKey(org), 'audit-events', ...filters],
  /** Issues; without filters, those of every filter. */
  issues: (org: string, ...filters: unknown[]) => [...orgKey(org), 'issues', ...filters],
}

export function useOrgs(enabled = true) {
  return useQuery({
    queryKey: listKeys.orgs(),
    queryFn: () => unwrap(api.GET('/api/v1/orgs', { params: { query: ALL } })),
    enabled,
  })
}

export function useEnvTypes(org: string) {
  return useQuery({
    queryKey: listKeys.envTypes(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/env-types', { params: { path: { org }, query: ALL } })),
  })
}

export function useResourceTypes(org: string, enabled = true) {
  return useQuery({
    queryKey: listKeys.resourceTypes(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/resource-types', { params: { path: { org }, query: ALL } })),
    enabled,
  })
}

export function useModules(org: string) {
  return useQuery({
    queryKey: listKeys.modules(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/modules', { params: { path: { org }, query: ALL } })),
  })
}

export function useRunners(org: string, refetchInterval?: number) {
  return useQuery({
    queryKey: listKeys.runners(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/runners', { params: { path: { org }, query: ALL } })),
    refetchInterval,
  })
}

export function useProviders(org: string) {
  return useQuery({
    queryKey: listKeys.providers(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/providers', { params: { path: { org }, query: ALL } })),
  })
}

export function useModuleRules(org: string) {
  return useQuery({
    queryKey: listKeys.moduleRules(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/module-rules', { params: { path: { org }, query: ALL } })),
  })
}

export function useRunnerRules(org: string) {
  return useQuery({
    queryKey: listKeys.runnerRules(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/runner-rules', { params: { path: { org }, query: ALL } })),
  })
}

export function useProjects(org: string) {
  return useQuery({
    queryKey: listKeys.projects(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/projects', { params: { path: { org }, query: ALL } })),
  })
}

/** The environments of a project; nothing is asked while `project` is empty. */
export function useEnvironments(org: string, project: string) {
  return useQuery({
    queryKey: listKeys.environments(org, project),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/projects/{project}/envs', { params: { path: { org, project }, query: ALL } })),
    enabled: project !== '',
  })
}
