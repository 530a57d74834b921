package dev.polystack.platform.deployment;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.util.List;
import java.util.UUID;

/** Removes an environment with everything recorded about it: manifests, deployments, jobs, logs, state. */
@ApplicationScoped
public class EnvironmentDeletion {

    private static final List<String> STATEMENTS = List.of(
            "delete from job_log where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from deployment_log_counter where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from state_lock where environment_id = ?1",
            "delete from state_version where environment_id = ?1",
            "delete from active_resource where environment_id = ?1",
            "delete from job where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from deployment_edge where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from deployment_node where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from deployment where environment_id = ?1",
            "delete from manifest where environment_id = ?1",
            "delete from environment where id = ?1");

    @Inject
    EntityManager entityManager;

    @Inject
    dev.polystack.platform.environment.EnvironmentService environments;

    @Inject
    dev.polystack.platform.common.ReferenceGuard references;

    @Inject
    dev.polystack.platform.resource.ActiveResourceService activeResources;

    @Inject
    DeploymentRepository deployments;

    @Inject
    DeploymentService deploymentService;

    @Inject
    DeploymentEngine engine;

    @Inject
    java.time.Clock clock;

    /**
     * Deletes an environment. One that still has resources is first torn down by a destroy deployment
     * (returned; the environment is deleted when it succeeds) unless {@code force} abandons them.
     */
    @jakarta.transaction.Transactional
    public java.util.Optional<DeploymentView> delete(dev.polystack.platform.security.OrgScope scope, String project, String env,
                                                     boolean force) {
        var environment = environments.reference(scope, project, env);
        references.requireUnused("environment", environment.id(), "environment `" + environment.path() + "`");
        environments.lock(environment.id());
        var running = deployments.head(environment.id());
        if (running.isPresent()) {
            throw dev.polystack.platform.common.problem.PlatformException.conflict("deployment " + running.get().id() + " of `"
                    + environment.path() + "` is " + running.get().status().wireName() + "; cancel it or wait for it first");
        }
        if (force || activeResources.count(environment.id()) == 0) {
            deleteNow(environment.id());
            return java.util.Optional.empty();
        }
        environments.moveTo(environment.id(), dev.polystack.platform.environment.EnvironmentStatus.DELETING);
        Deployment destroy = deploymentService.destroy(scope, environment, false, true, null, clock.instant());
        engine.advanceLocked(deployments.lock(destroy.id()));
        return java.util.Optional.of(deploymentService.view(deployments.findById(destroy.id()), environment, true));
    }

    /** Call inside a transaction, after checking that no rule refers to the environment. */
    public void deleteNow(UUID environmentId) {
        entityManager.flush();
        for (String statement : STATEMENTS) {
            entityManager.createNativeQuery(statement).setParameter(1, environmentId).executeUpdate();
        }
        entityManager.clear();
    }
}
