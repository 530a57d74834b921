import { lazy, Suspense } from 'react'
import { Navigate, Route, Routes } from 'react-router'
import { useSession } from './auth/session'
import { Loading } from './components/Async'
import { Layout } from './components/Layout'
import { CallbackPage } from './pages/CallbackPage'
import { HomePage } from './pages/HomePage'
import { SignInPage } from './pages/SignInPage'

// pages load when first visited, so signing in does not wait for the graph and editor libraries
const ApprovalsPage = lazy(() => import('./pages/ApprovalsPage').then((m) => ({ default: m.ApprovalsPage })))
const AuditPage = lazy(() => import('./pages/AuditPage').then((m) => ({ default: m.AuditPage })))
const IssuesPage = lazy(() => import('./pages/IssuesPage').then((m) => ({ default: m.IssuesPage })))
const WebhooksPage = lazy(() => import('./pages/WebhooksPage').then((m) => ({ default: m.WebhooksPage })))
const DeploymentPage = lazy(() => import('./pages/DeploymentPage').then((m) => ({ default: m.DeploymentPage })))
const EnvironmentPage = lazy(() => import('./pages/EnvironmentPage').then((m) => ({ default: m.EnvironmentPage })))
const EnginePage = lazy(() => import('./pages/EnginePage').then((m) => ({ default: m.EnginePage })))
const QuotasPage = lazy(() => import('./pages/QuotasPage').then((m) => ({ default: m.QuotasPage })))
const EnvTypesPage = lazy(() => import('./pages/EnvTypesPage').then((m) => ({ default: m.EnvTypesPage })))
const GroupMappingsPage = lazy(() => import('./pages/GroupMappingsPage').then((m) => ({ default: m.GroupMappingsPage })))
const MembersPage = lazy(() => import('./pages/MembersPage').then((m) => ({ default: m.MembersPage })))
const ModulePage = lazy(() => import('./pages/ModulePage').then((m) => ({ default: m.ModulePage })))
const ModulesPage = lazy(() => import('./pages/ModulesPage').then((m) => ({ default: m.ModulesPage })))
const ProjectPage = lazy(() => import('./pages/ProjectPage').then((m) => ({ default: m.ProjectPage })))
const ProjectsPage = lazy(() => import('./pages/ProjectsPage').then((m) => ({ default: m.ProjectsPage })))
const ProvidersPage = lazy(() => import('./pages/ProvidersPage').then((m) => ({ default: m.ProvidersPage })))
const ResourceTypesPage = lazy(() => import('./pages/ResourceTypesPage').then((m) => ({ default: m.ResourceTypesPage })))
const RulesPage = lazy(() => import('./pages/RulesPage').then((m) => ({ default: m.RulesPage })))
const RunnersPage = lazy(() => import('./pages/RunnersPage').then((m) => ({ default: m.RunnersPage })))
const ServiceUsersPage = lazy(() => import('./pages/ServiceUsersPage').then((m) => ({ default: m.ServiceUsersPage })))
const TokensPage = lazy(() => import('./pages/TokensPage').then((m) => ({ default: m.TokensPage })))

export function App() {
  const session = useSession()
  if (session.status === 'loading') return <Loading what="Polystack" />
  return (
    <Suspense fallback={<Loading what="the page" />}>
      <Routes>
        <Route path="/callback" element={<CallbackPage />} />
        {session.status !== 'signed-in' ? (
          <Route path="*" element={<SignInPage />} />
        ) : (
          <>
            <Route path="/" element={<HomePage />} />
            <Route path="/orgs/:org" element={<Layout />}>
              <Route index element={<Navigate to="projects" replace />} />
              <Route path="projects" element={<ProjectsPage />} />
              <Route path="projects/:project" element={<ProjectPage />} />
              <Route path="projects/:project/envs/:env" element={<EnvironmentPage />} />
              <Route path="projects/:project/envs/:env/deployments/:id" element={<DeploymentPage />} />
              <Route path="env-types" element={<EnvTypesPage />} />
              <Route path="resource-types" element={<ResourceTypesPage />} />
              <Route path="modules" element={<ModulesPage />} />
              <Route path="modules/:module" element={<ModulePage />} />
              <Route path="rules" element={<RulesPage />} />
              <Route path="providers" element={<ProvidersPage />} />
              <Route path="runners" element={<RunnersPage />} />
              <Route path="members" element={<MembersPage />} />
              <Route path="service-users" element={<ServiceUsersPage />} />
              <Route path="group-mappings" element={<GroupMappingsPage />} />
              <Route path="audit" element={<AuditPage />} />
              <Route path="issues" element={<IssuesPage />} />
              <Route path="approvals" element={<ApprovalsPage />} />
              <Route path="webhooks" element={<WebhooksPage />} />
              <Route path="tokens" element={<TokensPage />} />
              <Route path="engine" element={<EnginePage />} />
              <Route path="quotas" element={<QuotasPage />} />
              <Route path="*" element={<NotFound />} />
            </Route>
            <Route path="*" element={<NotFound />} />
          </>
        )}
      </Routes>
    </Suspense>
  )
}

function NotFound() {
  return (
    <div className="problem" role="alert">
      <strong>There is no such page</strong>
      <p>
        <a href="/console/">Go to the start page</a>
      </p>
    </div>
  )
}
