import { useState, type ReactNode } from 'react'
import { Dialog, DialogFooter } from './Dialog'
import { ProblemMessage } from './ProblemMessage'

/** A button that asks before it does something that cannot be undone. */
export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel = label,
  onConfirm,
  danger = true,
  disabled,
  ariaLabel,
}: {
  label: string
  /** the button's accessible name when its label alone is ambiguous, e.g. "Delete rule 3" */
  ariaLabel?: string
  title: string
  children: ReactNode
  confirmLabel?: string
  onConfirm: () => Promise<unknown>
  danger?: boolean
  disabled?: boolean
}) {
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  return (
    <>
      <button
        type="button"
        className={danger ? 'danger' : undefined}
        disabled={disabled}
        aria-label={ariaLabel}
        onClick={() => {
          setError(null)
          setOpen(true)
        }}>
        {label}
      </button>
      <Dialog open={open} title={title} onClose={() => setOpen(false)}>
        <div className="dialog-body">{children}</div>
        {error != null && <ProblemMessage error={error} />}
        <DialogFooter
          label={confirmLabel}
          busyLabel="Working…"
          busy={busy}
          danger={danger}
          onCancel={() => setOpen(false)}
          cancelLabel="Keep it"
          onAction={async () => {
            setBusy(true)
            try {
              await onConfirm()
              setOpen(false)
            } catch (e) {
              setError(e)
            } finally {
              setBusy(false)
            }
          }}
        />
      </Dialog>
    </>
  )
}

/** Copies a text to the clipboard and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text)
          setCopied(true)
          setTimeout(() => setCopied(false), 2000)
        } catch {
          setCopied(false)
        }
      }}>
      {copied ? 'Copied' : label}
    </button>
  )
}
