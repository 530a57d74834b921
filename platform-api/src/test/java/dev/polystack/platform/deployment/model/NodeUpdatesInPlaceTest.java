package dev.polystack.platform.deployment.model;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import dev.polystack.platform.testing.SentStatements;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's row is updated about three times in its deployment. PostgreSQL writes an update without new index entries
 * (a heap-only tuple) only when no indexed column changes and the new version fits on the page of the old one: no index
 * of the node table may hold its status. (The room the table keeps on its pages, its fill factor, is what the
 * benchmark's counts of heap-only updates show; a test's few nodes find room after pruning without it.)
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class NodeUpdatesInPlaceTest {

    /** Enough nodes to fill more than one page of the table. */
    private static final int NODES = 40;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aNodesStatusChangeIsWrittenInPlace() throws Exception {
        Scenario s = new Scenario(1);
        Map<String, List<String>> resources = new LinkedHashMap<>();
        for (int i = 0; i < NODES; i++) {
            resources.put("n" + i, List.of());
        }
        s.manifest(resources);
        UUID deployment = UUID.fromString(s.deploy());
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                // a node on a page before the table's last one: inserts and updates filled that page as far as
                // they fill any (the last page may have room whatever the table keeps)
                UUID node;
                try (PreparedStatement find = connection.prepareStatement("""
                        select id from deployment_node
                        where deployment_id = ?
                          and (ctid::text::point)[0] < (select max((ctid::text::point)[0]) from deployment_node)
                        order by ctid
                        limit 1""")) {
                    find.setObject(1, deployment);
                    try (ResultSet row = find.executeQuery()) {
                        assertThat(row.next())
                                .as("a node of the deployment before the table's last page")
                                .isTrue();
                        node = row.getObject(1, UUID.class);
                    }
                }
                long[] before = counts(connection);
                try (PreparedStatement update = connection.prepareStatement(
                        "update deployment_node set status = case when status = 'failed' then 'succeeded' else"
                                + " 'failed' end where id = ?")) {
                    update.setObject(1, node);
                    assertThat(update.executeUpdate()).isEqualTo(1);
                }
                long[] after = counts(connection);
                assertThat(after[0] - before[0]).as("updates").isEqualTo(1);
                assertThat(after[1] - before[1])
                        .as("updates written on the old version's page, with no new index entry")
                        .isEqualTo(1);
            } finally {
                connection.rollback();
            }
        }
    }

    /**
     * A deployment's first advance queues every node that waits for nothing. Their updates reach the database as one
     * batch, not one round trip each: written one by one, the first layer of a 500-node deployment took 100 round
     * trips of the create call, in which no job can be claimed yet.
     */
    @Test
    void theNodesAnAdvanceQueuesAreUpdatedInOneBatch() {
        Scenario s = new Scenario(1);
        Map<String, List<String>> resources = new LinkedHashMap<>();
        for (int i = 0; i < NODES; i++) {
            resources.put("q" + i, List.of());
        }
        s.manifest(resources);
        String[] id = new String[1];
        List<String> sent = SentStatements.during(() -> id[0] = s.deploy());
        assertThat(s.nodeStatuses(id[0]))
                .hasSize(NODES)
                .allSatisfy((node, status) -> assertThat(status).isEqualTo("queued"));
        // one batch; the statements heard are every thread's, so the background work of other tests' deployments
        // (a lease that expires, a sweep) may add one or two
        assertThat(sent.stream().map(SentStatements::oneLine))
                .as("statements that update nodes, each prepared once for its batch")
                .filteredOn(sql -> sql.startsWith("update deployment_node "))
                .hasSizeBetween(1, 3);
    }

    /**
     * The node table's updates and heap-only updates that this connection's backend has not yet reported: its pending
     * counts, which are reported only between transactions, so the difference of two readings in one transaction is
     * what that transaction did in between.
     */
    private static long[] counts(Connection connection) throws Exception {
        try (PreparedStatement counts = connection.prepareStatement(
                        "select n_tup_upd, n_tup_hot_upd from pg_stat_xact_user_tables where relname = 'deployment_node'");
                ResultSet row = counts.executeQuery()) {
            assertThat(row.next()).isTrue();
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }
}
