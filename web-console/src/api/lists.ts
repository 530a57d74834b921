import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from './client'

/*
 * The lists pages share, under one query key each, so that every page reads and invalidates the same
 * cache entry. Configuration lists are small: one page of up to 500.
 */

const ALL = { limit: 500 }

export const listKeys = {
  orgs: () => ['orgs'],
  envTypes: (org: string) => ['org', org, 'env-types'],
  resourceTypes: (org: string) => ['org', org, 'resource-types'],
  modules: (org: string) => ['org', org, 'modules'],
  runners: (org: string) => ['org', org, 'runners'],
  providers: (org: string) => ['org', org, 'providers'],
  projects: (org: string) => ['org', org, 'projects'],
  environments: (org: string, project: string) => ['org', org, 'projects', project, 'envs'],
  moduleRules: (org: string) => ['org', org, 'module-rules'],
  runnerRules: (org: string) => ['org', org, 'runner-rules'],
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

export function useResourceTypes(org: string) {
  return useQuery({
    queryKey: listKeys.resourceTypes(org),
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/resource-types', { params: { path: { org }, query: ALL } })),
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
