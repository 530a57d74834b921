package dev.polystack.platform.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * What PostgreSQL's planner would read for a query once its tables are large. A test's tables hold a few rows, where
 * reading a whole table is cheapest, so scans of whole tables are made the last resort (as they are on a large table
 * that an index serves) before the plan is asked for.
 */
public final class QueryPlans {

    private static final ObjectMapper JSON = new ObjectMapper();

    private QueryPlans() {}

    /**
     * Each read of {@code table} in the plan of {@code sql} with {@code parameters} (bound as {@code ?1}, {@code ?2},
     * …): the name of the index it reads, or the plan node's type when it reads no index ({@code Seq Scan}).
     */
    public static List<String> readsOf(EntityManager entityManager, String table, String sql, Object... parameters) {
        String plan = QuarkusTransaction.requiringNew().call(() -> {
            entityManager.createNativeQuery("set local enable_seqscan = off").executeUpdate();
            Query explain = entityManager.createNativeQuery("explain (format json) " + sql);
            for (int i = 0; i < parameters.length; i++) {
                explain.setParameter(i + 1, parameters[i]);
            }
            return String.valueOf(explain.getSingleResult());
        });
        List<String> reads = new ArrayList<>();
        try {
            collect(JSON.readTree(plan).path(0).path("Plan"), table, reads);
        } catch (Exception e) {
            throw new IllegalStateException("not a plan: " + plan, e);
        }
        return reads;
    }

    /**
     * Every node of the plan PostgreSQL would use for {@code sql} whatever its parameters (a generic plan; the
     * statement as Hibernate sends it, its parameters written {@code ?}), each as its type, then {@code on} the
     * table it reads, the index it reads that through and the condition it looks up in the index, where it has them:
     * {@code Index Scan on issue using issue_org_newest where (org_id = $1)}. Whole-table scans and sorts are made
     * the last resort, as they are for a page of a large table: the plan shows whether an index offers the page's
     * order and bounds, not which plan a test's few rows would make cheapest.
     */
    public static List<String> genericPlanOf(String sql) {
        String numbered = numbered(sql);
        // the statement's parameters stay unbound: sent by the simple protocol, on a connection of its own
        String plan;
        try (Connection connection = ownConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("set enable_seqscan = off");
            // and sorts: a page of a large table is cheapest read in order from an index when one offers that
            // order; a test's few rows per group would make sorting them cheaper
            statement.execute("set enable_sort = off");
            try (ResultSet row = statement.executeQuery("explain (generic_plan, format json) " + numbered)) {
                row.next();
                plan = row.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not plan " + numbered, e);
        }
        List<String> nodes = new ArrayList<>();
        try {
            describe(JSON.readTree(plan).path(0).path("Plan"), nodes);
        } catch (Exception e) {
            throw new IllegalStateException("not a plan: " + plan, e);
        }
        return nodes;
    }

    /** How often a prepared statement was planned for its own parameters, and how often it ran a generic plan. */
    public record Planned(long custom, long generic) {}

    /**
     * Prepares {@code sql} (its parameters written {@code ?}) on a connection of its own, as the driver does with a
     * statement it sent often, and executes it {@code executions} times with {@code literals} (each written as SQL,
     * quoted where needed). PostgreSQL plans the first five executions for their parameters, then keeps a generic
     * plan only if that does not cost more than theirs did: this says which it did.
     */
    public static Planned plannedOver(int executions, String sql, String... literals) {
        String numbered = numbered(sql);
        try (Connection connection = ownConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("prepare planned as " + numbered);
            for (int i = 0; i < executions; i++) {
                statement.execute("execute planned(" + String.join(", ", literals) + ")");
            }
            try (ResultSet row = statement.executeQuery(
                    "select custom_plans, generic_plans from pg_prepared_statements where name = 'planned'")) {
                row.next();
                return new Planned(row.getLong(1), row.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not execute " + numbered, e);
        }
    }

    /** A statement as Hibernate sends it, its parameters written {@code ?}, with {@code $1}, {@code $2}, … instead. */
    private static String numbered(String sql) {
        StringBuilder numbered = new StringBuilder();
        int parameter = 0;
        for (char c : sql.toCharArray()) {
            if (c == '?') {
                numbered.append('$').append(++parameter);
            } else {
                numbered.append(c);
            }
        }
        return numbered.toString();
    }

    /** A connection of its own to the application's database, that sends statements by the simple protocol. */
    private static Connection ownConnection() throws SQLException {
        Config config = ConfigProvider.getConfig();
        Properties properties = new Properties();
        properties.setProperty("user", config.getValue("polystack.db.user", String.class));
        properties.setProperty(
                "password",
                config.getOptionalValue("polystack.db.password", String.class).orElse(""));
        properties.setProperty("preferQueryMode", "simple");
        return DriverManager.getConnection(config.getValue("polystack.db.url", String.class), properties);
    }

    private static void describe(JsonNode node, List<String> into) {
        StringBuilder description = new StringBuilder(node.path("Node Type").asText());
        if (node.has("Relation Name")) {
            description.append(" on ").append(node.path("Relation Name").asText());
        }
        if (node.has("Index Name")) {
            description.append(" using ").append(node.path("Index Name").asText());
        }
        if (node.has("Index Cond")) {
            description.append(" where ").append(node.path("Index Cond").asText());
        }
        into.add(description.toString());
        node.path("Plans").forEach(child -> describe(child, into));
    }

    /** The indexes of {@code table} that cover only some of its rows (they have a condition). */
    public static List<String> partialIndexesOf(EntityManager entityManager, String table) {
        return QuarkusTransaction.requiringNew()
                .call(() -> entityManager
                        .createNativeQuery(
                                "select indexrelid::regclass::text from pg_index where indrelid = cast(?1 as regclass)"
                                        + " and indpred is not null",
                                String.class)
                        .setParameter(1, table)
                        .getResultList());
    }

    private static void collect(JsonNode node, String table, List<String> reads) {
        if (table.equals(node.path("Relation Name").asText())) {
            if (node.has("Index Name")) {
                reads.add(node.path("Index Name").asText());
            } else if ("Bitmap Heap Scan".equals(node.path("Node Type").asText())) {
                // the indexes are read by the bitmap scans below it
                bitmapIndexes(node, reads);
                return;
            } else {
                reads.add(node.path("Node Type").asText());
            }
        }
        node.path("Plans").forEach(child -> collect(child, table, reads));
    }

    private static void bitmapIndexes(JsonNode node, List<String> reads) {
        node.path("Plans").forEach(child -> {
            if (child.has("Index Name")) {
                reads.add(child.path("Index Name").asText());
            }
            bitmapIndexes(child, reads);
        });
    }
}
