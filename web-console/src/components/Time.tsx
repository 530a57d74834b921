const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

export function relativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000)
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      return relative.format(Math.round(seconds / size), unit)
    }
  }
  return iso
}

/** A point in time as "3 minutes ago" with the exact time on hover, or the exact time when `absolute`. */
export function Time({ value, absolute }: { value?: string | null; absolute?: boolean }) {
  if (!value) return <span className="muted">—</span>
  const exact = new Date(value).toLocaleString()
  return absolute ? (
    <time dateTime={value} title={relativeTime(value)}>
      {exact}
    </time>
  ) : (
    <time dateTime={value} title={exact}>
      {relativeTime(value)}
    </time>
  )
}

export function duration(from?: string, to?: string): string {
  if (!from) return '—'
  const ms = (to ? new Date(to).getTime() : Date.now()) - new Date(from).getTime()
  const s = Math.max(0, Math.round(ms / 1000))
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`
}
