import type { Role } from '../api/client'
import { ROLE_LABELS, ROLES } from '../auth/roles'

/** The roles as the options of a select, from the least to the most. */
export function RoleOptions() {
  return (
    <>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABELS[r]}
        </option>
      ))}
    </>
  )
}

/** A role in words. */
export function RoleBadge({ role }: { role: Role | undefined }) {
  return <span className="badge calm">{role ? ROLE_LABELS[role] : 'unknown'}</span>
}
