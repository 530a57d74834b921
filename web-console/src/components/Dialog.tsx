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
