import { useEffect, useId, useRef, type ReactNode } from 'react'

/** A modal dialog on the native <dialog> element: focus moves in, Escape closes it. */
export function Dialog({
  open,
  title,
  onClose,
  children,
  wide,
}: {
  open: boolean
  title: string
  onClose: () => void
  children: ReactNode
  wide?: boolean
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal()
      else dialog.setAttribute('open', '')
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close()
      else dialog.removeAttribute('open')
    }
  }, [open])
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={wide ? 'wide' : undefined}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}>
      {open && (
        <>
          <header>
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          {children}
        </>
      )}
    </dialog>
  )
}

/**
 * The buttons at the foot of a dialog: Cancel (when there is `onCancel`) and the action, which says
 * `busyLabel` and cannot be pressed again while `busy`. The action submits the form it is in, or runs
 * `onAction` when given (a dialog without a form).
 */
export function DialogFooter({
  label,
  busyLabel,
  busy = false,
  disabled = false,
  danger = false,
  onCancel,
  cancelLabel = 'Cancel',
  onAction,
  autoFocus,
}: {
  label: ReactNode
  busyLabel?: ReactNode
  busy?: boolean
  disabled?: boolean
  danger?: boolean
  onCancel?: () => void
  cancelLabel?: string
  onAction?: () => void
  autoFocus?: boolean
}) {
  return (
    <footer>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          {cancelLabel}
        </button>
      )}
      <button
        type={onAction ? 'button' : 'submit'}
        className={danger ? 'danger' : 'primary'}
        disabled={busy || disabled}
        onClick={onAction}
        autoFocus={autoFocus}>
        {busy && busyLabel ? busyLabel : label}
      </button>
    </footer>
  )
}
