import { useState } from 'react'
import { useModuleRules, useModules, useRunnerRules } from '../api/lists'
import { useOrg } from '../auth/org'
import { PageHeader } from '../components/Layout'
import { Tabs } from '../components/Tabs'
import { RuleExplainer } from './rules/RuleExplainer'
import { MODULE_RULES, RUNNER_RULES } from './rules/ruleKinds'
import { RulesTable } from './rules/RulesTable'

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
      <RuleExplainer />
    </>
  )
}

/** Module rules, each with the resource type of its module. */
function ModuleRules({ editable }: { editable: boolean }) {
  const { org } = useOrg()
  const query = useModuleRules(org)
  const modules = useModules(org)
  const typeOf = new Map((modules.data?.items ?? []).map((m) => [m.id, m.resource_type]))
  return (
    <RulesTable
      kind={MODULE_RULES}
      query={query}
      editable={editable}
      targetNote={(module) => typeOf.get(module) && <div className="hint">for {typeOf.get(module)}</div>}
    />
  )
}

function RunnerRules({ editable }: { editable: boolean }) {
  const { org } = useOrg()
  const query = useRunnerRules(org)
  return <RulesTable kind={RUNNER_RULES} query={query} editable={editable} />
}
