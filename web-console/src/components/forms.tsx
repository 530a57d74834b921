import { useId, useMemo, type ReactNode } from 'react'
import { CodeEditor, type LineProblem } from './CodeEditor'
import { Field } from './Field'

/*
 * Form pieces the configuration pages share: JSON editors that check their text before it is sent,
 * and key/value rows (labels, write-only secrets). The field errors of API problems are in ProblemMessage.
 */
export type JsonObject = { [key: string]: unknown }

/** What the API answers instead of a stored secret value, and what keeps it when sent back. */
export const SECRET_KEPT = '***'

/** Pretty-printed JSON with sorted object keys, so texts of equal values are equal. */
export function prettyJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted)
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v as JsonObject)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, x]) => [k, sorted(x)]),
      )
    }
    return v
  }
  return value === undefined ? '' : JSON.stringify(sorted(value), null, 2)
}

/** The text of a JSON value for an editor; empty when there is none. */
export function jsonText(value: unknown): string {
  return value === undefined || value === null ? '' : JSON.stringify(value, null, 2)
}

export function isJsonObject(value: unknown): value is JsonObject {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}

/** The 1-based line of a text that a JSON.parse error points at, from the engines' various messages. */
function errorLine(text: string, message: string): number {
  const lineColumn = message.match(/line (\d+) column \d+/)
  if (lineColumn) return Number(lineColumn[1])
  const position = message.match(/position (\d+)/)
  if (position) return text.slice(0, Number(position[1])).split('\n').length
  return 1
}

function cleanMessage(message: string): string {
  return message
    .replace(/^JSON\.parse: /, '')
    .replace(/ (in JSON )?at position \d+.*$/, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/, '')
}

/** The 1-based line on which a key of a JSON text first appears (1 when it does not). */
export function lineOf(text: string, key: string): number {
  const index = text.indexOf(JSON.stringify(key))
  return index < 0 ? 1 : text.slice(0, index).split('\n').length
}

export interface ParsedJson {
  /** The object, or undefined when the text is blank. */
  value?: JsonObject
  problem?: LineProblem
}

/** Parses the text of a JSON editor that must hold an object; blank text is no value. */
export function parseJsonObject(text: string): ParsedJson {
  if (!text.trim()) return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    return { problem: { line: errorLine(text, message), message: `Not valid JSON: ${cleanMessage(message)}` } }
  }
  if (!isJsonObject(value)) {
    const line = text.split('\n').findIndex((l) => l.trim()) + 1
    return { problem: { line, message: 'Must be a JSON object, in braces: { … }' } }
  }
  return { value }
}

/** A problem as a field error: "Line 3: …". */
export function lineProblemText(problem: LineProblem): string {
  return `Line ${problem.line}: ${problem.message}`
}

/** A labelled JSON editor; a problem found before sending is marked at its line and under the editor. */
export function JsonField({
  label,
  hint,
  value,
  onChange,
  problem,
  error,
  minHeight = '7rem',
}: {
  label: string
  hint?: ReactNode
  value: string
  onChange: (value: string) => void
  problem?: LineProblem
  error?: string
  minHeight?: string
}) {
  const problems = useMemo(() => (problem ? [problem] : []), [problem])
  return (
    <Field label={label} hint={hint} error={problem ? lineProblemText(problem) : error}>
      {(p) => (
        <CodeEditor
          label={label}
          language="json"
          value={value}
          onChange={onChange}
          problems={problems}
          minHeight={minHeight}
          describedBy={p['aria-describedby']}
          invalid={p['aria-invalid']}
        />
      )}
    </Field>
  )
}

/** A row of a key/value editor. Secret rows that are `stored` have a value only the server knows. */
export interface KeyValueRow {
  rowId: number
  key: string
  value: string
  stored?: boolean
  replacing?: boolean
}

let lastRowId = 0

export function newRow(key = '', value = '', stored = false): KeyValueRow {
  lastRowId += 1
  return { rowId: lastRowId, key, value, stored }
}

/** Rows of a map; for stored secrets only the names are kept. */
export function rowsOf(map: Record<string, string> | undefined, stored = false): KeyValueRow[] {
  return Object.entries(map ?? {}).map(([k, v]) => newRow(k, stored ? '' : v, stored))
}

/** The map the rows make; a stored secret that was not replaced is sent as *** to keep it. */
export function mapOf(rows: KeyValueRow[]): Record<string, string> {
  const result: Record<string, string> = {}
  for (const row of rows) {
    const key = row.key.trim()
    if (!key && !row.value) continue
    result[key] = row.stored && !row.replacing ? SECRET_KEPT : row.value
  }
  return result
}

/** What is wrong with the rows before sending: a value without a name, or a name given twice. */
export function rowsProblem(rows: KeyValueRow[], what: string): string | undefined {
  const seen = new Set<string>()
  for (const row of rows) {
    const key = row.key.trim()
    if (!key && row.value) return `Every ${what} needs a name.`
    if (key && seen.has(key)) return `“${key}” is given twice.`
    seen.add(key)
  }
  return undefined
}

/** Editable key/value rows (labels, secrets). Secret values are write-only: stored ones are never shown. */
export function KeyValueRows({
  legend,
  hint,
  rows,
  onChange,
  secret,
  keyLabel,
  valueLabel,
  addLabel,
  empty,
  error,
}: {
  legend: string
  hint?: ReactNode
  rows: KeyValueRow[]
  onChange: (rows: KeyValueRow[]) => void
  secret?: boolean
  keyLabel: string
  valueLabel: string
  addLabel: string
  empty: string
  error?: string
}) {
  const base = useId()
  const update = (rowId: number, change: Partial<KeyValueRow>) => onChange(rows.map((r) => (r.rowId === rowId ? { ...r, ...change } : r)))
  const noteId = `${base}-note`
  return (
    <fieldset className={`kv-rows${error ? ' invalid' : ''}`} aria-describedby={error || hint ? noteId : undefined}>
      <legend>{legend}</legend>
      {rows.length === 0 && <p className="muted small">{empty}</p>}
      {rows.map((row, i) => {
        const keyId = `${base}-${row.rowId}-key`
        const valueId = `${base}-${row.rowId}-value`
        const name = row.key || `${keyLabel.toLowerCase()} ${i + 1}`
        return (
          <div className="kv-row" key={row.rowId}>
            <div className="kv-key">
              {row.stored ? (
                <code>{row.key}</code>
              ) : (
                <>
                  <label className="sr-only" htmlFor={keyId}>{`${keyLabel} ${i + 1}`}</label>
                  <input
                    id={keyId}
                    value={row.key}
                    placeholder={keyLabel}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => update(row.rowId, { key: e.target.value })}
                  />
                </>
              )}
            </div>
            <div className="kv-value">
              {row.stored && !row.replacing ? (
                <>
                  <span className="secret">••• stored</span>
                  <button type="button" aria-label={`Replace ${row.key}`} onClick={() => update(row.rowId, { replacing: true, value: '' })}>
                    Replace
                  </button>
                </>
              ) : (
                <>
                  <label className="sr-only" htmlFor={valueId}>
                    {row.stored ? `New value of ${row.key}` : `${valueLabel} ${i + 1}`}
                  </label>
                  <input
                    id={valueId}
                    type={secret ? 'password' : 'text'}
                    autoComplete={secret ? 'new-password' : 'off'}
                    value={row.value}
                    placeholder={row.stored ? 'New value' : valueLabel}
                    required={row.stored}
                    autoFocus={row.replacing}
                    onChange={(e) => update(row.rowId, { value: e.target.value })}
                  />
                  {row.stored && (
                    <button
                      type="button"
                      aria-label={`Keep the stored value of ${row.key}`}
                      onClick={() => update(row.rowId, { replacing: false, value: '' })}>
                      Keep
                    </button>
                  )}
                </>
              )}
            </div>
            <button type="button" aria-label={`Remove ${name}`} onClick={() => onChange(rows.filter((r) => r.rowId !== row.rowId))}>
              Remove
            </button>
          </div>
        )
      })}
      <button type="button" onClick={() => onChange([...rows, newRow()])}>
        {addLabel}
      </button>
      {error ? (
        <div className="field-error" id={noteId}>
          {error}
        </div>
      ) : hint ? (
        <div className="hint" id={noteId}>
          {hint}
        </div>
      ) : null}
    </fieldset>
  )
}
