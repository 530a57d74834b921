package dev.polystack.platform.deployment.model;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.util.List;
import java.util.UUID;

/** Deletes an environment with everything recorded about it: manifests, deployments, jobs, logs, state. */
@ApplicationScoped
public class EnvironmentRecords {

    private static final List<String> STATEMENTS = List.of(
            "delete from job_log where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from deployment_log_counter where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from state_lock where environment_id = ?1",
            "delete from state_version where environment_id = ?1",
            "delete from issue where environment_id = ?1",
            "delete from active_resource where environment_id = ?1",
            "delete from job where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from deployment_edge where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from deployment_node where deployment_id in (select id from deployment where environment_id = ?1)",
            "delete from deployment where environment_id = ?1",
            "delete from manifest where environment_id = ?1",
            "delete from environment where id = ?1");

    @Inject
    EntityManager entityManager;

    /** Call inside a transaction, after checking that no rule refers to the environment. */
    public void deleteAll(UUID environmentId) {
        entityManager.flush();
        for (String statement : STATEMENTS) {
            entityManager
                    .createNativeQuery(statement)
                    .setParameter(1, environmentId)
                    .executeUpdate();
        }
        entityManager.clear();
    }
}
