package dev.polystack.platform.deployment;

import dev.polystack.platform.common.ReferenceGuard;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.deployment.model.EnvironmentRecords;
import dev.polystack.platform.deployment.scheduling.DeploymentEngine;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentStatus;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.Optional;

/**
 * Deletes an environment on a user's request: at once when nothing is deployed in it, else through a
 * destroy deployment, after which the engine deletes its records.
 */
@ApplicationScoped
public class EnvironmentDeletion {

    @Inject
    EnvironmentRecords records;

    @Inject
    EnvironmentService environments;

    @Inject
    ReferenceGuard references;

    @Inject
    ActiveResourceService activeResources;

    @Inject
    DeploymentRepository deployments;

    @Inject
    DeploymentService deploymentService;

    @Inject
    DeploymentEngine engine;

    @Inject
    Clock clock;

    /**
     * Deletes an environment. One that still has resources is first torn down by a destroy deployment
     * (returned; the environment is deleted when it succeeds) unless {@code force} abandons them.
     */
    @Transactional
    public Optional<DeploymentView> delete(OrgScope scope, String project, String env, boolean force) {
        var environment = environments.reference(scope, project, env);
        environments.requireDeletable(environment);
        references.requireUnused("environment", environment.id(), "environment `" + environment.path() + "`");
        environments.lock(environment.id());
        var running = deployments.head(environment.id());
        if (running.isPresent()) {
            throw PlatformException.conflict("deployment " + running.get().id() + " of `" + environment.path() + "` is "
                    + running.get().status().wireName() + "; cancel it or wait for it first");
        }
        if (force || activeResources.count(environment.id()) == 0) {
            records.deleteAll(environment.id());
            return Optional.empty();
        }
        environments.moveTo(environment.id(), EnvironmentStatus.DELETING);
        Deployment destroy = deploymentService.destroy(scope, environment, false, true, null, clock.instant());
        engine.advanceLocked(deployments.lock(destroy.id()));
        return Optional.of(deploymentService.view(deployments.findById(destroy.id()), environment, true));
    }
}
