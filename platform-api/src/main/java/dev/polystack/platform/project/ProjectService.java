package dev.polystack.platform.project;

import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ReferenceGuard;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.quota.Quota;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class ProjectService {

    @Inject
    ProjectRepository projects;

    @Inject
    ReferenceGuard references;

    @Inject
    Clock clock;

    @Inject
    QuotaService quotas;

    @Transactional
    public ProjectView create(OrgScope scope, CreateProjectRequest request) {
        if (projects.find(scope.orgId(), request.id()).isPresent()) {
            throw PlatformException.conflict("project `" + request.id() + "` already exists");
        }
        quotas.requireRoom(
                scope.orgId(),
                Quota.PROJECTS,
                "in organization `" + scope.orgSlug() + "`",
                () -> quotas.used(scope.orgId(), Quota.PROJECTS));
        Project project = new Project(scope.orgId(), request.id(), request.name(), clock.instant());
        project.manage(Management.of(request.managedBy(), request.protect()));
        projects.persist(project);
        return ProjectView.of(project);
    }

    @Transactional
    public Page<ProjectView> list(OrgScope scope, PageRequest page) {
        int limit = page.limit();
        return Page.of(projects.page(scope.orgId(), page.after(), limit), limit, Project::slug, ProjectView::of);
    }

    @Transactional
    public ProjectView get(OrgScope scope, String id) {
        return ProjectView.of(require(scope, id));
    }

    @Transactional
    public ProjectView update(OrgScope scope, String id, UpdateProjectRequest request, Long expectedVersion) {
        Project project = require(scope, id);
        Versions.check(expectedVersion, project.version());
        project.rename(request.name(), clock.instant());
        project.manage(project.management().with(request.managedBy(), request.protect()));
        projects.flush();
        return ProjectView.of(project);
    }

    @Transactional
    public void delete(OrgScope scope, String id) {
        Project project = require(scope, id);
        project.management().requireDeletable("project `" + id + "`");
        references.requireUnused("project", project.id(), "project `" + id + "`");
        projects.delete(project);
    }

    /** The id of a project of the organization, if it exists. */
    public Optional<UUID> findId(UUID orgId, String slug) {
        return projects.find(orgId, slug).map(Project::id);
    }

    public String slugOf(UUID projectId) {
        return projects.findById(projectId).slug();
    }

    private Project require(OrgScope scope, String id) {
        return projects.find(scope.orgId(), id).orElseThrow(() -> PlatformException.notFound("project `" + id + "`"));
    }
}
