import { EditorState } from '@codemirror/state'
import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CodeEditor, toDiagnostics } from './CodeEditor'

describe('CodeEditor', () => {
  it('maps a problem to the whole of its line, clamping lines outside the text', () => {
    const doc = EditorState.create({ doc: 'a: 1\nbb: 2\nccc: 3' }).doc
    const [second, beyond] = toDiagnostics(doc, [
      { line: 2, message: 'bad' },
      { line: 99, message: 'far' },
    ])
    expect(doc.sliceString(second.from, second.to)).toBe('bb: 2')
    expect(second.severity).toBe('error')
    expect(doc.sliceString(beyond.from, beyond.to)).toBe('ccc: 3')
  })

  it('renders the text with an accessible name', () => {
    const { container } = render(<CodeEditor label="Manifest" language="yaml" value={'shared:\n  a: { type: thing }\n'} />)
    const content = container.querySelector('.cm-content')!
    expect(content.getAttribute('aria-label')).toBe('Manifest')
    expect(content.textContent).toContain('type: thing')
  })
})
