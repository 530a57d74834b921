import { useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { listKeys } from '../../api/lists'
import { useOrg } from '../../auth/org'
import { Async } from '../../components/Async'
import { ConfirmButton } from '../../components/Buttons'
import { Managed } from '../../components/Managed'
import { Time } from '../../components/Time'
import { RuleDialog } from './RuleDialog'
import { CRITERION_TITLES } from './RuleFields'
import type { AnyRule, RuleKind } from './ruleKinds'

/** A rule's criterion, or "any" when it does not set it. */
function Criterion({ value }: { value?: string }) {
  return value ? <code>{value}</code> : <span className="muted">any</span>
}

/** The criteria a rule sets, in words. */
function RuleSummary({ rule }: { rule: AnyRule }) {
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

/**
 * The rules of a kind, with their criteria; editors create and delete them here. `targetNote` says more
 * about a rule's target below it.
 */
export function RulesTable({
  kind,
  query,
  editable,
  targetNote,
}: {
  kind: RuleKind
  query: UseQueryResult<{ items?: AnyRule[] }>
  editable: boolean
  targetNote?: (target?: string) => ReactNode
}) {
  const { org } = useOrg()
  const [creating, setCreating] = useState(false)
  const client = useQueryClient()
  const changed = async () => {
    await client.invalidateQueries({ queryKey: kind.listKey(org) })
    await client.invalidateQueries({ queryKey: listKeys.explain(org) })
  }
  const headingId = `${kind.noun}-rules-heading`
  const newLabel = `New ${kind.noun} rule`
  return (
    <section aria-labelledby={headingId}>
      <div className="section-header">
        <div>
          <h2 id={headingId}>{kind.title}</h2>
          <p className="muted">{kind.description}</p>
        </div>
        {editable && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            {newLabel}
          </button>
        )}
      </div>
      <Async
        query={query}
        what={kind.what}
        isEmpty={(d) => !d.items?.length}
        empty={
          <>
            {kind.empty}
            {editable ? ` ${kind.emptyAdvice}` : ''}
          </>
        }>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th>{kind.targetTitle}</th>
                {kind.columns.map((c) => (
                  <th key={c}>{CRITERION_TITLES[c]}</th>
                ))}
                <th>Created</th>
                {editable && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items!.map((r) => {
                const target = r[kind.target]
                return (
                  <tr key={r.id}>
                    <td>
                      {kind.showTarget(org, target)} <Managed item={r} />
                      {targetNote?.(target)}
                      {kind.columns.every((c) => !r[c]) && <div className="hint">no criteria: applies everywhere</div>}
                    </td>
                    {kind.columns.map((c) => (
                      <td key={c}>
                        <Criterion value={r[c]} />
                      </td>
                    ))}
                    <td>
                      <Time value={r.created_at} />
                    </td>
                    {editable && (
                      <td className="row-actions">
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete this rule for ${kind.noun} “${target}”`}
                          title={`Delete this rule for ${kind.noun} “${target}”?`}
                          onConfirm={async () => {
                            await kind.remove(org, r.id!)
                            await changed()
                          }}>
                          <RuleSummary rule={r} />
                          {kind.deleteNote}
                        </ConfirmButton>
                      </td>
                    )}
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      </Async>
      {creating && <RuleDialog kind={kind} org={org} title={newLabel} onClose={() => setCreating(false)} onSaved={changed} />}
    </section>
  )
}
