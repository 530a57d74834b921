package dev.polystack.platform.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;

import java.util.ArrayList;
import java.util.List;

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
