package dev.polystack.platform.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.common.sql.JsonTreeJavaType;
import dev.polystack.platform.runner.Runner;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.hibernate.Session;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.polystack.platform.testing.Api.createOrg;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every entity's JSON columns share one Java type, whatever order Hibernate binds the entities in: a tree is copied
 * as a tree, compared by content, and never written to a log.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class JsonColumnsTest {

    @Inject
    EntityManager entityManager;

    @Test
    void everyJsonColumnOfEveryEntityHasTheRegisteredJavaType() {
        List<String> registered = new ArrayList<>();
        List<String> other = new ArrayList<>();
        entityManager
                .getEntityManagerFactory()
                .unwrap(SessionFactoryImplementor.class)
                .getMappingMetamodel()
                .forEachEntityDescriptor(entity -> entity.forEachAttributeMapping(attribute -> {
                    if (attribute.getJavaType().getJavaTypeClass() != JsonNode.class) {
                        return;
                    }
                    String name = entity.getEntityName() + "." + attribute.getAttributeName();
                    boolean ours = attribute.getSingleJdbcMapping().getJavaTypeDescriptor() instanceof JsonTreeJavaType;
                    (ours ? registered : other).add(name);
                }));
        // runners' labels are changed by replacing them, deployment nodes' specs are marked immutable: both kinds
        assertThat(registered).contains(Runner.class.getName() + ".labels").hasSizeGreaterThan(15);
        assertThat(other).isEmpty();
    }

    @Test
    void anEntityWithJsonColumnsIsNotDirtyRightAfterItIsLoaded() {
        String org = createOrg();
        RunnerDriver.register(org, "json-columns", 2);
        QuarkusTransaction.requiringNew().run(() -> {
            Runner runner = entityManager
                    .createQuery("from Runner where slug = :slug", Runner.class)
                    .setParameter("slug", "json-columns")
                    .getResultList()
                    .get(0);
            assertThat(runner.labels()).isNotNull();
            assertThat(entityManager.unwrap(Session.class).isDirty()).isFalse();
        });
    }

    @Test
    void aCopyIsAnEqualTreeOfItsOwnAndAValueIsNeverLogged() throws Exception {
        JsonTreeJavaType type = new JsonTreeJavaType();
        JsonNode tree = new ObjectMapper().readTree("{\"password\":\"hunter2\",\"list\":[1,{\"a\":null}]}");
        JsonNode copy = type.getMutabilityPlan().deepCopy(tree);
        assertThat(copy).isNotSameAs(tree).isEqualTo(tree);
        assertThat(copy.get("list")).isNotSameAs(tree.get("list"));
        assertThat(type.areEqual(tree, copy)).isTrue();
        assertThat(type.fromString(type.toString(tree))).isEqualTo(tree);
        assertThat(type.extractLoggableRepresentation(tree)).doesNotContain("hunter2");
    }
}
