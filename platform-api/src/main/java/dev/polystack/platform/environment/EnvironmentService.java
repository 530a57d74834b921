package dev.polystack.platform.environment;

import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ReferenceGuard;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.envtype.EnvTypeService;
import dev.polystack.platform.project.ProjectService;
import dev.polystack.platform.quota.Quota;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.rules.matching.EnvironmentContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class EnvironmentService {

    @Inject
    EnvironmentRepository environments;

    @Inject
    ProjectService projects;

    @Inject
    EnvTypeService envTypes;

    @Inject
    ReferenceGuard references;

    @Inject
    Clock clock;

    @Inject
    QuotaService quotas;

    @Transactional
    public EnvironmentView create(OrgScope scope, String project, CreateEnvironmentRequest request) {
        UUID projectId = projectId(scope, project);
        UUID envTypeId = envTypeId(scope, request.envTypeId());
        if (environments.find(projectId, request.id()).isPresent()) {
            throw PlatformException.conflict("environment `" + project + "/" + request.id() + "` already exists");
        }
        quotas.requireRoom(
                scope.orgId(),
                Quota.ENVIRONMENTS_PER_PROJECT,
                "in project `" + project + "`",
                () -> quotas.count("select count(*) from environment where project_id = ?1", projectId));
        if (request.checks() != null) {
            request.checks().validate("/checks");
        }
        Environment environment = new Environment(scope.orgId(), projectId, request.id(), envTypeId, clock.instant());
        environment.manage(Management.of(request.managedBy(), request.protect()));
        environment.scheduleChecks(request.checks() == null || request.checks().isEmpty() ? null : request.checks());
        environments.persist(environment);
        return view(environment, project);
    }

    @Transactional
    public Page<EnvironmentView> list(OrgScope scope, String project, PageRequest page) {
        int limit = page.limit();
        UUID projectId = projectId(scope, project);
        return Page.of(
                environments.page(projectId, page.after(), limit), limit, Environment::slug, e -> view(e, project));
    }

    @Transactional
    public EnvironmentView get(OrgScope scope, String project, String id) {
        return view(require(scope, project, id), project);
    }

    @Transactional
    public EnvironmentView update(
            OrgScope scope, String project, String id, UpdateEnvironmentRequest request, Long expectedVersion) {
        Environment environment = require(scope, project, id);
        Versions.check(expectedVersion, environment.version());
        if (request.checks() != null) {
            request.checks().validate("/checks");
        }
        environment.changeType(envTypeId(scope, request.envTypeId()), clock.instant());
        if (request.checks() != null) {
            environment.scheduleChecks(request.checks().isEmpty() ? null : request.checks());
        }
        environment.manage(environment.management().with(request.managedBy(), request.protect()));
        environments.flush();
        return view(environment, project);
    }

    /** Refuses to delete a protected environment. */
    public void requireDeletable(EnvironmentRef environment) {
        environments
                .findById(environment.id())
                .management()
                .requireDeletable("environment `" + environment.path() + "`");
    }

    /**
     * Resolves the project / environment type / environment criteria of a rule; each may be absent.
     * An environment needs its project; unknown names are 422 problems that name the field.
     */
    public TargetIds resolveTarget(OrgScope scope, String project, String envType, String env) {
        UUID projectId = project == null
                ? null
                : projects.findId(scope.orgId(), project)
                        .orElseThrow(() -> PlatformException.unprocessable(
                                "/project_id", "project `" + project + "` does not exist"));
        UUID envTypeId = envType == null
                ? null
                : envTypes.findId(scope.orgId(), envType)
                        .orElseThrow(() -> PlatformException.unprocessable(
                                "/env_type_id", "environment type `" + envType + "` does not exist"));
        UUID envId = null;
        if (env != null) {
            if (projectId == null) {
                throw PlatformException.invalid(
                        "/env_id", "needs project_id: environment ids are unique within a project");
            }
            envId = environments
                    .find(projectId, env)
                    .map(Environment::id)
                    .orElseThrow(() -> PlatformException.unprocessable(
                            "/env_id", "environment `" + project + "/" + env + "` does not exist"));
        }
        return new TargetIds(projectId, envTypeId, envId);
    }

    /** The ids of a rule's target criteria back as names. */
    public TargetNames namesOf(TargetIds ids) {
        return new TargetNames(
                ids.projectId() == null ? null : projects.slugOf(ids.projectId()),
                ids.envTypeId() == null ? null : envTypes.slugOf(ids.envTypeId()),
                ids.envId() == null ? null : environments.findById(ids.envId()).slug());
    }

    /** Rule criteria about where a resource lives, as stored. */
    public record TargetIds(UUID projectId, UUID envTypeId, UUID envId) {}

    /** The same criteria by name. */
    public record TargetNames(String projectId, String envTypeId, String envId) {}

    /** An environment of the organization, or a 404 problem. */
    public EnvironmentRef reference(OrgScope scope, String project, String env) {
        Environment environment = require(scope, project, env);
        return ref(environment, project, scope.orgSlug());
    }

    /** An environment by id, for the engine. */
    public EnvironmentRef reference(UUID environmentId, String orgSlug) {
        Environment environment = environments.findById(environmentId);
        return ref(environment, projects.slugOf(environment.projectId()), orgSlug);
    }

    /** Locks the environment's row until the transaction ends: deployments of one environment go one at a time. */
    public void lock(UUID environmentId) {
        environments.getEntityManager().find(Environment.class, environmentId, LockModeType.PESSIMISTIC_WRITE);
    }

    public void moveTo(UUID environmentId, EnvironmentStatus status) {
        Environment environment = environments.findById(environmentId);
        if (environment.status() != status) {
            environment.moveTo(status, clock.instant());
        }
    }

    private EnvironmentRef ref(Environment environment, String project, String orgSlug) {
        return new EnvironmentRef(
                environment.id(),
                environment.orgId(),
                orgSlug,
                project,
                environment.slug(),
                envTypes.slugOf(environment.envTypeId()),
                environment.status());
    }

    /** The ids and names of an environment, and its status. */
    public record EnvironmentRef(
            UUID id, UUID orgId, String org, String project, String env, String envType, EnvironmentStatus status) {
        public EnvironmentContext context() {
            return new EnvironmentContext(org, project, env, envType);
        }

        public String path() {
            return project + "/" + env;
        }
    }

    /** The id of an environment, if the project and the environment exist in the organization. */
    public Optional<UUID> findId(UUID orgId, String project, String env) {
        return projects.findId(orgId, project)
                .flatMap(p -> environments.find(p, env))
                .map(Environment::id);
    }

    /** {@code project/env} of an environment, for messages and views. */
    public String pathOf(UUID environmentId) {
        Environment environment = environments.findById(environmentId);
        return projects.slugOf(environment.projectId()) + "/" + environment.slug();
    }

    private Environment require(OrgScope scope, String project, String id) {
        return environments
                .find(projectId(scope, project), id)
                .orElseThrow(() -> PlatformException.notFound("environment `" + project + "/" + id + "`"));
    }

    private UUID projectId(OrgScope scope, String project) {
        return projects.findId(scope.orgId(), project)
                .orElseThrow(() -> PlatformException.notFound("project `" + project + "`"));
    }

    private UUID envTypeId(OrgScope scope, String envType) {
        return envTypes.findId(scope.orgId(), envType)
                .orElseThrow(() -> PlatformException.unprocessable(
                        "/env_type_id", "environment type `" + envType + "` does not exist"));
    }

    private EnvironmentView view(Environment environment, String project) {
        return new EnvironmentView(
                environment.slug(),
                project,
                envTypes.slugOf(environment.envTypeId()),
                environment.status(),
                environment.management().managedBy(),
                environment.management().isProtected(),
                environment.checks(),
                environment.createdAt(),
                environment.updatedAt(),
                environment.version());
    }
}
