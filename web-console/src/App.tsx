import { Navigate, Route, Routes } from 'react-router'
import { useSession } from './auth/session'
import { Loading } from './components/Async'
import { Layout } from './components/Layout'
import { AuditPage } from './pages/AuditPage'
import { CallbackPage } from './pages/CallbackPage'
import { DeploymentPage } from './pages/DeploymentPage'
import { EnvironmentPage } from './pages/EnvironmentPage'
import { EnvTypesPage } from './pages/EnvTypesPage'
import { HomePage } from './pages/HomePage'
import { MembersPage } from './pages/MembersPage'
import { ModulePage } from './pages/ModulePage'
import { ModulesPage } from './pages/ModulesPage'
import { ProjectPage } from './pages/ProjectPage'
import { ProjectsPage } from './pages/ProjectsPage'
import { ProvidersPage } from './pages/ProvidersPage'
import { ResourceTypesPage } from './pages/ResourceTypesPage'
import { RulesPage } from './pages/RulesPage'
import { RunnersPage } from './pages/RunnersPage'
import { SignInPage } from './pages/SignInPage'
import { TokensPage } from './pages/TokensPage'

export function App() {
  const session = useSession()
  if (session.status === 'loading') return <Loading what="Polystack" />
  return (
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
            <Route path="audit" element={<AuditPage />} />
            <Route path="tokens" element={<TokensPage />} />
            <Route path="*" element={<NotFound />} />
          </Route>
          <Route path="*" element={<NotFound />} />
        </>
      )}
    </Routes>
  )
}

function NotFound() {
  return (
    <div className="problem" role="alert">
      <strong>There is no such page</strong>
      <p><a href="/console/">Go to the start page</a></p>
    </div>
  )
}
