import type { Role } from '../api/client'

const ORDER: Role[] = ['viewer', 'developer', 'platform-engineer', 'owner']

/** Whether a role includes another: owners can do what platform engineers can, and so on. */
export function includes(role: Role | null | undefined, needed: Role): boolean {
  if (!role) return false
  return ORDER.indexOf(role) >= ORDER.indexOf(needed)
}

export const ROLE_LABELS: Record<Role, string> = {
  viewer: 'Viewer',
  developer: 'Developer',
  'platform-engineer': 'Platform engineer',
  owner: 'Owner',
}

export const ROLES = ORDER
