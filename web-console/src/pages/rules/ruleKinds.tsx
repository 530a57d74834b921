import type { ComponentType, ReactNode } from 'react'
import { Link } from 'react-router'
import { api, unwrap } from '../../api/client'
import { listKeys } from '../../api/lists'
import { ModuleChoice, RunnerChoice, type Criterion, type RuleFieldProps } from './RuleFields'

/*
 * The two kinds of rule: module rules choose the module that provisions a resource, runner rules the
 * runner that runs its jobs. Both are a target and criteria; what differs is said here.
 */

/**
 * What a rule of either kind may hold (a `ModuleRuleView` or a `RunnerRuleView`), for reading one
 * without knowing its kind: its target is `module_id` or `runner_id`.
 */
export type AnyRule = Partial<Record<'module_id' | 'runner_id' | Criterion, string>> & {
  id?: string
  created_at?: string
  managed_by?: string
  protected?: boolean
}

export interface RuleKind {
  /** what the rule chooses, in words: "module" */
  noun: 'module' | 'runner'
  /** the field that holds what the rule chooses */
  target: 'module_id' | 'runner_id'
  /** the title of the list, "Module rules", and the name of the target's column and field, "Module" */
  title: string
  targetTitle: string
  description: string
  /** what the list is, while it loads: "module rules" */
  what: string
  /** the list without rules, and what editors can do about it */
  empty: string
  emptyAdvice: string
  /** the criteria, in the order of the list's columns */
  columns: Criterion[]
  /** the criteria, in the order of the dialog's fields; the environment always comes last */
  fields: Exclude<Criterion, 'env_id'>[]
  /** what deleting a rule means */
  deleteNote: string
  /** the field that picks the target */
  TargetField: ComponentType<RuleFieldProps>
  /** the target in the list */
  showTarget: (org: string, target?: string) => ReactNode
  listKey: (org: string) => unknown[]
  create: (org: string, target: string, criteria: Partial<Record<Criterion, string>>) => Promise<unknown>
  remove: (org: string, ruleId: string) => Promise<unknown>
}

export const MODULE_RULES: RuleKind = {
  noun: 'module',
  target: 'module_id',
  title: 'Module rules',
  targetTitle: 'Module',
  description: 'Which module provisions resources of its module’s type, by class, id, project and environment.',
  what: 'module rules',
  empty: 'No module rules yet: resources cannot get a module.',
  emptyAdvice: 'Create a rule for each module, e.g. one without criteria as the default.',
  columns: ['resource_class', 'resource_id', 'project_id', 'env_type_id', 'env_id'],
  fields: ['resource_class', 'resource_id', 'project_id', 'env_type_id'],
  deleteNote: 'Resources it matched are matched against the remaining rules at their next manifest or deployment.',
  TargetField: ModuleChoice,
  showTarget: (org, module) => (
    <Link to={`/orgs/${org}/modules/${module}`}>
      <code>{module}</code>
    </Link>
  ),
  listKey: listKeys.moduleRules,
  create: (org, module, criteria) =>
    unwrap(api.POST('/api/v1/orgs/{org}/module-rules', { params: { path: { org } }, body: { module_id: module, ...criteria } })),
  remove: (org, ruleId) => unwrap(api.DELETE('/api/v1/orgs/{org}/module-rules/{rule_id}', { params: { path: { org, rule_id: ruleId } } })),
}

export const RUNNER_RULES: RuleKind = {
  noun: 'runner',
  target: 'runner_id',
  title: 'Runner rules',
  targetTitle: 'Runner',
  description: 'Which runner runs the jobs of resources, by project, environment, resource type and class.',
  what: 'runner rules',
  empty: 'No runner rules yet: no runner will get jobs.',
  emptyAdvice: 'Create one without criteria to send every job to one runner.',
  columns: ['project_id', 'env_type_id', 'env_id', 'resource_type', 'resource_class'],
  fields: ['project_id', 'env_type_id', 'resource_type', 'resource_class'],
  deleteNote: 'Jobs queued from now on go to the runner of the remaining rules.',
  TargetField: RunnerChoice,
  showTarget: (_org, runner) => <code>{runner}</code>,
  listKey: listKeys.runnerRules,
  create: (org, runner, criteria) =>
    unwrap(api.POST('/api/v1/orgs/{org}/runner-rules', { params: { path: { org } }, body: { runner_id: runner, ...criteria } })),
  remove: (org, ruleId) => unwrap(api.DELETE('/api/v1/orgs/{org}/runner-rules/{rule_id}', { params: { path: { org, rule_id: ruleId } } })),
}
