import { useParams } from 'react-router'
import type { Role } from '../api/client'
import { includes } from './roles'
import { useSession } from './session'

export interface OrgAccess {
  org: string
  /** The caller's role here; instance administrators count as owners. */
  role: Role | null
  can(needed: Role): boolean
}

/** The organization of the current page and what the caller may do in it. */
export function useOrg(): OrgAccess {
  const { org = '' } = useParams()
  const { me } = useSession()
  const membership = me?.memberships?.find((m) => m.org === org)
  const role: Role | null = me?.instance_admin ? 'owner' : (membership?.role ?? null)
  return { org, role, can: (needed) => includes(role, needed) }
}

const LAST_ORG = 'polystack.org'

export function rememberOrg(org: string) {
  localStorage.setItem(LAST_ORG, org)
}

export function lastOrg(): string | null {
  return localStorage.getItem(LAST_ORG)
}
