import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { Dialog, DialogFooter } from '../../components/Dialog'
import { FormProblem, problemsByField } from '../../components/ProblemMessage'
import { CRITERION_FIELDS, EnvironmentField, type Criterion } from './RuleFields'
import type { RuleKind } from './ruleKinds'

/** Only the criteria that are set: an empty one means "any". */
function criteria(values: Partial<Record<Criterion, string>>): Partial<Record<Criterion, string>> {
  const result: Partial<Record<Criterion, string>> = {}
  for (const [k, v] of Object.entries(values) as [Criterion, string][]) {
    if (v.trim()) result[k] = v.trim()
  }
  return result
}

/** Creates a rule of a kind: its target, and the criteria it sets. */
export function RuleDialog({
  kind,
  org,
  title,
  onClose,
  onSaved,
}: {
  kind: RuleKind
  org: string
  title: string
  onClose: () => void
  onSaved: () => Promise<unknown>
}) {
  const [target, setTarget] = useState('')
  const [form, setForm] = useState<Partial<Record<Criterion, string>>>(() =>
    Object.fromEntries([...kind.fields, 'env_id'].map((c) => [c, ''])),
  )
  const set = (k: Criterion) => (value: string) => setForm((f) => ({ ...f, [k]: value }))
  const save = useMutation({
    mutationFn: () => kind.create(org, target, criteria(form)),
    onSuccess: async () => {
      await onSaved()
      onClose()
    },
  })
  const errors = problemsByField(save.error)
  const TargetField = kind.TargetField
  return (
    <Dialog open title={title} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          save.mutate()
        }}>
        <TargetField org={org} value={target} onChange={setTarget} error={errors[kind.target]} />
        <p className="hint">
          Criteria are optional; an empty one matches anything. The rule that sets the most specific matching criteria wins.
        </p>
        <div className="grid-2">
          {kind.fields.map((c) => {
            const CriterionField = CRITERION_FIELDS[c]
            return <CriterionField key={c} org={org} value={form[c] ?? ''} onChange={set(c)} error={errors[c]} />
          })}
        </div>
        <EnvironmentField
          org={org}
          project={form.project_id ?? ''}
          value={form.env_id ?? ''}
          onChange={set('env_id')}
          error={errors.env_id}
        />
        <FormProblem error={save.error} fields={[kind.target, ...kind.fields, 'env_id']} />
        <DialogFooter label="Create rule" busyLabel="Creating…" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  )
}
