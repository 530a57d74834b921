import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { FormEvent } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { DialogFooter } from './Dialog'

describe('DialogFooter', () => {
  it('cancels, and submits its form with the action', async () => {
    const cancel = vi.fn()
    const submit = vi.fn((e: FormEvent) => e.preventDefault())
    render(
      <form onSubmit={submit}>
        <DialogFooter label="Create rule" busyLabel="Creating…" onCancel={cancel} />
      </form>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(cancel).toHaveBeenCalledOnce()
    expect(submit).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Create rule' }))
    expect(submit).toHaveBeenCalledOnce()
    expect(screen.getByRole('button', { name: 'Create rule' })).toHaveClass('primary')
  })

  it('says it is busy and cannot be pressed again meanwhile; without a busy label it keeps its label', () => {
    const { rerender } = render(<DialogFooter label="Save" busyLabel="Saving…" busy onCancel={() => {}} />)
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled()
    rerender(<DialogFooter label="Save" busy onCancel={() => {}} />)
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
  })

  it('runs its action outside a form, without a Cancel when there is nothing to cancel', async () => {
    const done = vi.fn()
    render(<DialogFooter label="Reject" danger onAction={done} />)
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument()
    const reject = screen.getByRole('button', { name: 'Reject' })
    expect(reject).toHaveClass('danger')
    expect(reject).toHaveAttribute('type', 'button')
    await userEvent.click(reject)
    expect(done).toHaveBeenCalledOnce()
  })
})
