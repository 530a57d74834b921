import { useQuery, useQueryClient } from '@tanstack/react-query'
import { diffLines } from 'diff'
import { Fragment, useMemo, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { api, unwrap, type Schemas } from '../api/client'
import { listKeys } from '../api/lists'
import { useOrg } from '../auth/org'
import { Async } from '../components/Async'
import { ConfirmButton } from '../components/Buttons'
import { Dialog } from '../components/Dialog'
import { Field } from '../components/Field'
import { PageHeader } from '../components/Layout'
import { Tabs } from '../components/Tabs'
import { Time } from '../components/Time'
import { isJsonObject, prettyJson } from '../components/forms'
import { ModuleForm } from './ModuleForm'

type ModuleView = Schemas['ModuleView']
type ModuleVersion = Schemas['ModuleVersionView']
type Pair = { from: number; to: number }

/** One module: its current version, its versions, the changes between two of them; editing makes a new version. */
export function ModulePage() {
  const { org, can } = useOrg()
  const { module: id = '' } = useParams()
  const moduleKey = listKeys.module(org, id)
  const module = useQuery({
    queryKey: moduleKey,
    queryFn: () => unwrap(api.GET('/api/v1/orgs/{org}/modules/{module}', { params: { path: { org, module: id } } })),
  })
  const versions = useQuery({
    queryKey: listKeys.moduleVersions(org, id),
    queryFn: () =>
      unwrap(api.GET('/api/v1/orgs/{org}/modules/{module}/versions', { params: { path: { org, module: id }, query: { limit: 500 } } })),
  })
  const [tab, setTab] = useState('definition')
  const [pair, setPair] = useState<Pair | null>(null)
  const [editing, setEditing] = useState(false)
  const client = useQueryClient()
  const navigate = useNavigate()
  const editable = can('platform-engineer')
  const count = versions.data?.items?.length

  return (
    <>
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link to={`/orgs/${org}/modules`}>Modules</Link> / {id}
      </nav>
      <PageHeader
        title={id}
        subtitle={
          module.data && (
            <>
              Provisions <code>{module.data.resource_type}</code> resources · version {module.data.version}
            </>
          )
        }>
        {editable && module.data && (
          <>
            <button type="button" className="primary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <ConfirmButton
              label="Delete"
              ariaLabel={`Delete module “${id}”`}
              title={`Delete module “${id}”?`}
              onConfirm={async () => {
                await unwrap(api.DELETE('/api/v1/orgs/{org}/modules/{module}', { params: { path: { org, module: id } } }))
                client.removeQueries({ queryKey: moduleKey })
                await client.invalidateQueries({ queryKey: listKeys.modules(org), exact: true })
                navigate(`/orgs/${org}/modules`)
              }}>
              All its versions are deleted. Module rules that name it keep it from being deleted.
            </ConfirmButton>
          </>
        )}
      </PageHeader>
      <Async query={module} what="module">
        {(m) => (
          <Tabs
            active={tab}
            onChange={setTab}
            tabs={[
              { id: 'definition', label: 'Current version' },
              { id: 'versions', label: count === undefined ? 'Versions' : `Versions (${count})` },
              { id: 'compare', label: 'Compare versions' },
            ]}>
            {tab === 'definition' && <ModuleDefinition module={m} />}
            {tab !== 'definition' && (
              <Async query={versions} what="versions" isEmpty={(d) => !d.items?.length} empty="This module has no versions.">
                {(data) =>
                  tab === 'versions' ? (
                    <VersionsTable
                      versions={data.items!}
                      onCompare={(p) => {
                        setPair(p)
                        setTab('compare')
                      }}
                    />
                  ) : (
                    <VersionCompare versions={data.items!} pair={pair ?? defaultPair(data.items!)} onChange={setPair} />
                  )
                }
              </Async>
            )}
          </Tabs>
        )}
      </Async>
      <Dialog open={editing && !!module.data} wide title={`Edit “${id}”: new version`} onClose={() => setEditing(false)}>
        {module.data && (
          <>
            <p className="notice">
              Saving makes version {(module.data.version ?? 0) + 1}. Deployed resources keep their version until their environment is
              deployed again.
            </p>
            <ModuleForm
              org={org}
              module={module.data}
              onCancel={() => setEditing(false)}
              onSaved={() => {
                setEditing(false)
                setPair(null)
                return client.invalidateQueries({ queryKey: listKeys.modules(org) })
              }}
            />
          </>
        )}
      </Dialog>
    </>
  )
}

/** The previous version and the newest one (versions are listed newest first). */
function defaultPair(versions: ModuleVersion[]): Pair {
  const to = versions[0]?.version ?? 1
  return { from: versions[1]?.version ?? to, to }
}

function Json({ value, none }: { value: unknown; none: string }) {
  const empty = value === undefined || value === null || (isJsonObject(value) && Object.keys(value).length === 0)
  return empty ? <p className="muted">{none}</p> : <pre tabIndex={0}>{prettyJson(value)}</pre>
}

function ModuleDefinition({ module: m }: { module: ModuleView }) {
  const params = m.module_params
  const paramEntries = isJsonObject(params) ? Object.entries(params) : []
  const secrets = Object.keys(m.secret_inputs ?? {})
  return (
    <>
      <dl className="kv card">
        <dt>Resource type</dt>
        <dd>
          <code>{m.resource_type}</code>
        </dd>
        <dt>Version</dt>
        <dd>{m.version}</dd>
        <dt>Source</dt>
        <dd>{m.module_source === 'inline' ? 'inline (code below)' : <code>{m.module_source}</code>}</dd>
        <dt>This version made</dt>
        <dd>
          <Time value={m.updated_at} />
        </dd>
        <dt>Module created</dt>
        <dd>
          <Time value={m.created_at} />
        </dd>
      </dl>
      {m.module_source === 'inline' && (
        <section>
          <h2>Source code</h2>
          <pre tabIndex={0}>
            <code>{m.module_source_code}</code>
          </pre>
        </section>
      )}
      <ModuleInterface module={m} />
      <section>
        <h2>Params</h2>
        {paramEntries.length === 0 ? (
          <p className="muted">No params: manifests give resources of this module nothing.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Type</th>
                <th>Required</th>
                <th>Description</th>
              </tr>
            </thead>
            <tbody>
              {paramEntries.map(([name, p]) => {
                const param = isJsonObject(p) ? p : {}
                return (
                  <tr key={name}>
                    <td>
                      <code>{name}</code>
                    </td>
                    <td>{String(param.type ?? '')}</td>
                    <td>{param.is_optional ? 'optional' : 'required'}</td>
                    <td>
                      {typeof param.description === 'string' && param.description ? param.description : <span className="muted">—</span>}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        )}
      </section>
      <div className="grid-2">
        <section>
          <h2>Inputs</h2>
          <Json value={m.module_inputs} none="No inputs." />
        </section>
        <section>
          <h2>Provider mapping</h2>
          <Json value={m.provider_mapping} none="No providers mapped." />
          <h2>Dependencies</h2>
          <Json value={m.dependencies} none="No dependencies." />
          <h2>Secret inputs</h2>
          {secrets.length === 0 ? (
            <p className="muted">No secret inputs.</p>
          ) : (
            <dl className="kv">
              {secrets.map((s) => (
                <Fragment key={s}>
                  <dt>
                    <code>{s}</code>
                  </dt>
                  <dd className="secret">••• stored</dd>
                </Fragment>
              ))}
            </dl>
          )}
        </section>
      </div>
    </>
  )
}

/** What the code declares, as read when the version was saved; or why it was not read. */
function ModuleInterface({ module: m }: { module: ModuleView }) {
  const declared = m.module_interface
  if (!declared?.checked) {
    return <p className="notice">Variables and outputs: not checked — {declared?.note ?? 'the code was not read'}.</p>
  }
  const variables = declared.variables ?? []
  const outputs = declared.outputs ?? []
  return (
    <div className="grid-2">
      <section>
        <h2>Variables</h2>
        {variables.length === 0 ? (
          <p className="muted">The code declares no variables.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Type</th>
                <th>Default</th>
              </tr>
            </thead>
            <tbody>
              {variables.map((v) => (
                <tr key={v.name}>
                  <td>
                    <code>{v.name}</code>
                    {v.sensitive ? <span className="muted small"> sensitive</span> : null}
                  </td>
                  <td>
                    <code>{v.type}</code>
                  </td>
                  <td>{v.required ? 'none: must be set' : 'has one'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section>
        <h2>Outputs</h2>
        {outputs.length === 0 ? (
          <p className="muted">The code declares no outputs.</p>
        ) : (
          <ul className="plain">
            {outputs.map((o) => (
              <li key={o.name}>
                <code>{o.name}</code>
                {o.sensitive ? <span className="muted small"> sensitive</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}

function VersionsTable({ versions, onCompare }: { versions: ModuleVersion[]; onCompare: (pair: Pair) => void }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Version</th>
          <th>Source</th>
          <th>Made</th>
          <th>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {versions.map((v, i) => {
          const previous = versions[i + 1]?.version
          return (
            <tr key={v.version}>
              <td>
                {v.version}
                {i === 0 && (
                  <>
                    {' '}
                    <span className="badge ok">current</span>
                  </>
                )}
              </td>
              <td className="source-address">{v.module_source === 'inline' ? 'inline' : <code>{v.module_source}</code>}</td>
              <td>
                <Time value={v.created_at} />
              </td>
              <td>
                <div className="row-actions">
                  {previous !== undefined && (
                    <button type="button" onClick={() => onCompare({ from: previous, to: v.version! })}>
                      Changes from {previous}
                    </button>
                  )}
                </div>
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

/** The parts of a version that are compared, as text. */
const PARTS: { title: string; text: (v: ModuleVersion) => string }[] = [
  { title: 'Source', text: (v) => `${v.module_source ?? ''}\n` },
  { title: 'Source code', text: (v) => v.module_source_code ?? '' },
  { title: 'Params', text: (v) => prettyJson(v.module_params ?? {}) },
  { title: 'Inputs', text: (v) => prettyJson(v.module_inputs ?? {}) },
  { title: 'Provider mapping', text: (v) => prettyJson(v.provider_mapping ?? {}) },
  { title: 'Dependencies', text: (v) => prettyJson(v.dependencies ?? {}) },
  {
    title: 'Secret input names',
    text: (v) =>
      Object.keys(v.secret_inputs ?? {})
        .sort()
        .join('\n'),
  },
]

function VersionCompare({ versions, pair, onChange }: { versions: ModuleVersion[]; pair: Pair; onChange: (pair: Pair) => void }) {
  const from = versions.find((v) => v.version === pair.from)
  const to = versions.find((v) => v.version === pair.to)
  const select = (label: string, value: number, change: (n: number) => void) => (
    <Field label={label}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => change(Number(e.target.value))}>
          {versions.map((v) => (
            <option key={v.version} value={v.version}>
              Version {v.version}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
  return (
    <>
      <div className="filters">
        {select('From version', pair.from, (n) => onChange({ ...pair, from: n }))}
        {select('To version', pair.to, (n) => onChange({ ...pair, to: n }))}
      </div>
      {versions.length < 2 && (
        <p className="notice">This module has one version so far. Editing it makes version 2, which can then be compared with this one.</p>
      )}
      {from &&
        to &&
        PARTS.map((part) => (
          <section key={part.title}>
            <h2>{part.title}</h2>
            <DiffView
              before={part.text(from)}
              after={part.text(to)}
              label={`${part.title}: changes from version ${pair.from} to ${pair.to}`}
            />
          </section>
        ))}
    </>
  )
}

interface DiffLine {
  kind: 'add' | 'del' | 'same' | 'gap'
  text: string
}

const CONTEXT = 3

/** The lines of a line diff; long runs of unchanged lines are folded to a few lines of context. */
function diffRows(before: string, after: string): DiffLine[] {
  const rows: DiffLine[] = []
  const changes = diffLines(before, after)
  changes.forEach((change, index) => {
    if (change.value === '') return
    const lines = change.value.replace(/\n$/, '').split('\n')
    if (change.added || change.removed) {
      for (const text of lines) rows.push({ kind: change.added ? 'add' : 'del', text })
      return
    }
    const keepHead = index === 0 ? 0 : CONTEXT
    const keepTail = index === changes.length - 1 ? 0 : CONTEXT
    if (lines.length > keepHead + keepTail + 1) {
      for (const text of lines.slice(0, keepHead)) rows.push({ kind: 'same', text })
      rows.push({ kind: 'gap', text: `${lines.length - keepHead - keepTail} unchanged lines` })
      for (const text of lines.slice(lines.length - keepTail)) rows.push({ kind: 'same', text })
    } else {
      for (const text of lines) rows.push({ kind: 'same', text })
    }
  })
  return rows
}

const SIGNS: Record<DiffLine['kind'], string> = { add: '+ ', del: '- ', same: '  ', gap: '⋯ ' }

function DiffView({ before, after, label }: { before: string; after: string; label: string }) {
  const rows = useMemo(() => diffRows(before, after), [before, after])
  if (!rows.some((r) => r.kind === 'add' || r.kind === 'del')) return <p className="muted">No changes.</p>
  return (
    <div className="diff" role="group" aria-label={label}>
      {rows.map((row, i) => (
        <div key={i} className={row.kind === 'same' ? undefined : row.kind}>
          <span className="diff-sign">{SIGNS[row.kind]}</span>
          {row.text}
        </div>
      ))}
    </div>
  )
}
