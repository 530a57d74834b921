import { useEffect, useEffectEvent, useRef } from 'react'
import { EditorView, basicSetup } from 'codemirror'
import { EditorState, type Extension } from '@codemirror/state'
import { yaml } from '@codemirror/lang-yaml'
import { json } from '@codemirror/lang-json'
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint'

export interface LineProblem {
  /** 1-based line of the text. */
  line: number
  message: string
}

/** Turns line problems into editor diagnostics that cover their whole line. */
export function toDiagnostics(doc: EditorState['doc'], problems: LineProblem[]): Diagnostic[] {
  return problems.map((p) => {
    const line = doc.line(Math.min(Math.max(1, p.line), doc.lines))
    return { from: line.from, to: Math.max(line.from, line.to), severity: 'error', message: p.message }
  })
}

/** A code editor (CodeMirror) for YAML, JSON or plain text, with problems shown at their lines. */
export function CodeEditor({
  value,
  onChange,
  language = 'text',
  problems = [],
  label,
  readOnly,
  minHeight = '12rem',
  describedBy,
  invalid,
}: {
  value: string
  onChange?: (value: string) => void
  language?: 'yaml' | 'json' | 'text'
  problems?: LineProblem[]
  label: string
  readOnly?: boolean
  minHeight?: string
  /** id of the element that describes it (a Field's hint or error) */
  describedBy?: string
  invalid?: boolean
}) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  // the editor calls the latest onChange, without being created anew when it changes
  const changed = useEffectEvent((text: string) => onChange?.(text))

  useEffect(() => {
    const attributes: Record<string, string> = {
      'aria-label': label,
      'aria-multiline': 'true',
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      ...(invalid ? { 'aria-invalid': 'true' } : {}),
    }
    const extensions: Extension[] = [
      basicSetup,
      lintGutter(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of(attributes),
      EditorState.readOnly.of(!!readOnly),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) changed(update.state.doc.toString())
      }),
      EditorView.theme({ '&': { minHeight }, '.cm-scroller': { minHeight } }),
    ]
    if (language === 'yaml') extensions.push(yaml())
    if (language === 'json') extensions.push(json())
    const editor = new EditorView({ parent: host.current!, state: EditorState.create({ doc: value, extensions }) })
    view.current = editor
    return () => {
      editor.destroy()
      view.current = null
    }
    // the editor is created once per language; value changes are applied below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, readOnly, label, describedBy, invalid])

  useEffect(() => {
    const editor = view.current
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } })
    }
  }, [value])

  useEffect(() => {
    const editor = view.current
    if (editor) editor.dispatch(setDiagnostics(editor.state, toDiagnostics(editor.state.doc, problems)))
  }, [problems])

  return <div className="code-editor" ref={host} data-testid={`editor-${label}`} />
}
