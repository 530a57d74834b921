import { NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { useEffect, useState } from 'react'
import { useOrgs } from '../api/lists'
import { rememberOrg, useOrg } from '../auth/org'
import { ROLE_LABELS } from '../auth/roles'
import { useSession } from '../auth/session'
import { OrgForm } from '../pages/HomePage'
import { Dialog } from './Dialog'

interface NavItem {
  to: string
  label: string
  visible: boolean
}

/** The console's frame: organization switcher, navigation by role, the signed-in user. */
export function Layout() {
  const session = useSession()
  const { org, role, can } = useOrg()
  const navigate = useNavigate()
  const location = useLocation()
  const [creatingOrg, setCreatingOrg] = useState(false)
  // at phone width the navigation folds away behind a menu button; going somewhere folds it again
  const [menuOpen, setMenuOpen] = useState(false)
  const [menuPath, setMenuPath] = useState(location.pathname)
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname)
    setMenuOpen(false)
  }
  const orgs = useOrgs(!!session.me?.instance_admin)
  useEffect(() => {
    if (org) rememberOrg(org)
  }, [org])

  const choices = new Set((session.me?.memberships ?? []).map((m) => m.org!).filter(Boolean))
  for (const o of orgs.data?.items ?? []) if (o.id) choices.add(o.id)
  choices.add(org)

  const develop: NavItem[] = [
    { to: 'projects', label: 'Projects', visible: true },
    { to: 'issues', label: 'Issues', visible: true },
    { to: 'approvals', label: 'Approvals', visible: true },
  ]
  const configure: NavItem[] = [
    { to: 'env-types', label: 'Environment types', visible: true },
    { to: 'resource-types', label: 'Resource types', visible: true },
    { to: 'modules', label: 'Modules', visible: true },
    { to: 'rules', label: 'Rules', visible: true },
    { to: 'providers', label: 'Providers', visible: true },
    { to: 'runners', label: 'Runners', visible: true },
  ]
  const administer: NavItem[] = [
    { to: 'members', label: 'Members', visible: true },
    { to: 'service-users', label: 'Service users', visible: true },
    { to: 'group-mappings', label: 'Group mappings', visible: can('owner') },
    { to: 'quotas', label: 'Quotas', visible: true },
    { to: 'webhooks', label: 'Webhooks', visible: can('platform-engineer') },
    { to: 'audit', label: 'Audit log', visible: can('platform-engineer') },
    { to: 'engine', label: 'Deployment engine', visible: !!session.me?.instance_admin },
  ]
  const section = (title: string, items: NavItem[]) => (
    <div className="nav-section">
      <h2>{title}</h2>
      <ul>
        {items
          .filter((i) => i.visible)
          .map((i) => (
            <li key={i.to}>
              <NavLink to={`/orgs/${org}/${i.to}`}>{i.label}</NavLink>
            </li>
          ))}
      </ul>
    </div>
  )

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="topbar">
        <span className="brand">Polystack</span>
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </button>
      </div>
      <nav id="main-nav" className={`sidebar${menuOpen ? ' open' : ''}`} aria-label="Main">
        <div className="brand">Polystack</div>
        <label className="org-switcher">
          <span>Organization</span>
          <select
            value={org}
            onChange={(e) => {
              const rest = location.pathname.split('/').slice(4).join('/')
              const target =
                [
                  'projects',
                  'issues',
                  'approvals',
                  'env-types',
                  'resource-types',
                  'modules',
                  'rules',
                  'providers',
                  'runners',
                  'members',
                  'service-users',
                  'group-mappings',
                  'quotas',
                  'webhooks',
                  'audit',
                  'tokens',
                  'engine',
                ].includes(location.pathname.split('/')[3] ?? '') && !rest
                  ? location.pathname.split('/')[3]
                  : 'projects'
              navigate(`/orgs/${e.target.value}/${target}`)
            }}>
            {[...choices].sort().map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        {role && (
          <div className="role-note">
            Your role: <strong>{ROLE_LABELS[role]}</strong>
            {session.me?.instance_admin && (
              <>
                {' '}
                ·{' '}
                <button type="button" className="link" onClick={() => setCreatingOrg(true)}>
                  New organization
                </button>
              </>
            )}
          </div>
        )}
        {section('Develop', develop)}
        {section('Configure', configure)}
        {section('Administer', administer)}
        <div className="user">
          <div className="user-name" title={session.me?.email ?? undefined}>
            {session.me?.name}
          </div>
          <NavLink to={`/orgs/${org}/tokens`}>My API tokens</NavLink>
          <button type="button" className="link" onClick={() => session.signOut()}>
            Sign out
          </button>
        </div>
      </nav>
      <Dialog open={creatingOrg} title="New organization" onClose={() => setCreatingOrg(false)}>
        <OrgForm
          onCancel={() => setCreatingOrg(false)}
          onCreated={(id) => {
            setCreatingOrg(false)
            navigate(`/orgs/${id}/projects`)
          }}
        />
      </Dialog>
      <main id="main" tabIndex={-1}>
        {role ? (
          <Outlet />
        ) : (
          <div className="problem" role="alert">
            <strong>You are not a member of “{org}”</strong>
            <p>
              Pick another organization, or ask one of its owners to add you as <code>{session.me?.name}</code>.
            </p>
          </div>
        )}
      </main>
    </div>
  )
}

/** A page's title row with its actions. */
export function PageHeader({ title, subtitle, children }: { title: string; subtitle?: React.ReactNode; children?: React.ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Polystack`
  }, [title])
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
      </div>
      {children && <div className="actions">{children}</div>}
    </header>
  )
}
