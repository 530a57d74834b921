package dev.polystack.platform.resource;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.QueryPlans;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every claim reads its references' outputs with one statement. PostgreSQL planned it again at every execution: the
 * plan for the parameters at hand counted the references, and looked cheaper than a plan for any number of them, so
 * the generic plan was never kept. Planning took longer than running it (PostgreSQL's statement statistics over a
 * 500-node benchmark run: 0.18 ms to plan, 0.29 ms to run, 3,535 plans for 4,400 executions).
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ReferencedOutputsPlanTest {

    @Inject
    EntityManager entityManager;

    @Test
    void theReferencesOutputsAreReadWithAPlanKeptAcrossExecutions() {
        // environments of 500 resources, as in the benchmark, and statistics that know them (on a few rows, a plan
        // that reads the environment's rows whole costs as little, whatever the number of references); then the
        // resources of an environment the statistics do not know yet, as a new deployment's claims read them
        List<UUID> environments = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                environments.add(withResources(new Scenario(1).prodEnvironmentId()));
            }
            QuarkusTransaction.requiringNew()
                    .run(() -> entityManager
                            .createNativeQuery("analyze active_resource")
                            .executeUpdate());
            UUID environment = withResources(new Scenario(1).prodEnvironmentId());
            environments.add(environment);
            QueryPlans.Planned planned = QueryPlans.plannedOver(
                    20,
                    ActiveResourceService.REFERENCED_OUTPUTS,
                    "'" + environment + "'",
                    "'{thing,thing,thing}'",
                    "'{default,default,default}'",
                    "'{r1,r20,r300}'");
            assertThat(planned.generic())
                    .as("executions that ran the generic plan, of 20 (%s)", planned)
                    .isGreaterThanOrEqualTo(15);
            assertThat(QueryPlans.genericPlanOf(ActiveResourceService.REFERENCED_OUTPUTS))
                    .as("the generic plan looks each reference up in the identity key")
                    .anySatisfy(node -> assertThat(node)
                            .startsWith("Index Scan on active_resource using active_resource_identity_key where")
                            .contains("environment_id = ", "res_type = ", "res_class = ", "res_id = "));
        } finally {
            // the rows are not real resources (their resolved inputs are not sealed): no other test meets them
            QuarkusTransaction.requiringNew()
                    .run(() -> entityManager
                            .createNativeQuery("delete from active_resource where environment_id = any(?1)")
                            .setParameter(1, environments.toArray(new UUID[0]))
                            .executeUpdate());
        }
    }

    private UUID withResources(UUID environment) {
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery("""
                                insert into active_resource (id, environment_id, res_type, res_class, res_id,
                                  module_slug, module_version, runner_id, spec, inputs_digest, resolved,
                                  sensitive_outputs, tofu_resources, dependencies, created_at, updated_at)
                                select gen_random_uuid(), e.id, 'thing', 'default', 'r' || n, 'm', 1, r.id, '{}', 'd',
                                  '\\x00', '{}', '[]', '[]', now(), now()
                                from environment e join runner r on r.org_id = e.org_id, generate_series(1, 500) n
                                where e.id = ?1""")
                        .setParameter(1, environment)
                        .executeUpdate());
        return environment;
    }
}
