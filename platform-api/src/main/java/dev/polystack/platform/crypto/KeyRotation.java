package dev.polystack.platform.crypto;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.UUID;

/**
 * Re-encrypts every sealed value under the current key. Run it after making a new key current
 * ({@code POLYSTACK_ENCRYPTION_KEY}, a higher {@code POLYSTACK_ENCRYPTION_KEY_ID}) and moving the old
 * one to {@code POLYSTACK_ENCRYPTION_PREVIOUS_KEYS}; when it is done the old key can be dropped.
 * Works in batches of small transactions, so it can run while Polystack serves.
 */
@ApplicationScoped
public class KeyRotation {

    private static final Logger LOG = Logger.getLogger(KeyRotation.class);
    private static final int BATCH = 200;

    /** A sealed column, and the associated data each of its values was sealed with (as SQL over the row). */
    private record SealedColumn(String table, String column, String binding) {}

    private static final List<SealedColumn> COLUMNS = List.of(
            new SealedColumn("provider", "secret_configuration", "'provider:' || t.id"),
            new SealedColumn("module_version", "secret_inputs", "'module-version:' || t.id"),
            new SealedColumn("deployment_node", "resolved", "'node:' || t.id"),
            new SealedColumn(
                    "active_resource",
                    "resolved",
                    "'resolved:' || t.environment_id || ':' || t.res_type || '/' || t.res_class || '/' || t.res_id"),
            new SealedColumn(
                    "active_resource",
                    "outputs",
                    "'outputs:' || t.environment_id || ':' || t.res_type || '/' || t.res_class || '/' || t.res_id"),
            new SealedColumn(
                    "state_version",
                    "content",
                    "'state:' || t.environment_id || ':' || t.resource_key || ':' || t.id"));

    @Inject
    EntityManager entityManager;

    @Inject
    SecretBox secretBox;

    public int currentKeyId() {
        return secretBox.currentKeyId();
    }

    /** Re-seals every value sealed with another key than the current one; returns how many. */
    public long rotate() {
        long total = 0;
        for (SealedColumn column : COLUMNS) {
            long count = 0;
            while (true) {
                int done = QuarkusTransaction.requiringNew().call(() -> batch(column));
                count += done;
                if (done < BATCH) {
                    break;
                }
            }
            if (count > 0) {
                LOG.infof("Re-encrypted %d value(s) of %s.%s", count, column.table(), column.column());
            }
            total += count;
        }
        return total;
    }

    private int batch(SealedColumn column) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager
                .createNativeQuery("select t.id, t." + column.column() + ", " + column.binding()
                        + " from " + column.table() + " t where t." + column.column() + " is not null and get_byte(t."
                        + column.column()
                        + ", 1) <> ?1 limit " + BATCH + " for update skip locked")
                .setParameter(1, secretBox.currentKeyId())
                .getResultList();
        for (Object[] row : rows) {
            String binding = (String) row[2];
            byte[] opened = secretBox.open((byte[]) row[1], binding);
            entityManager
                    .createNativeQuery("update " + column.table() + " set " + column.column() + " = ?1 where id = ?2")
                    .setParameter(1, secretBox.seal(opened, binding))
                    .setParameter(2, (UUID) row[0])
                    .executeUpdate();
        }
        return rows.size();
    }
}
