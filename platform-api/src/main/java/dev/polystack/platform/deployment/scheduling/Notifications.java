package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.common.sql.AfterCommit;
import dev.polystack.platform.common.sql.Autocommit;
import dev.polystack.platform.common.sql.InTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PostgreSQL LISTEN/NOTIFY between replicas: a new job wakes the waiting claims of its runner on every
 * replica at once, and a finished deployment wakes its waiters. One listening connection per replica;
 * waiters are futures, so a waiting request holds no thread.
 */
@ApplicationScoped
public class Notifications {

    private static final Logger LOG = Logger.getLogger(Notifications.class);
    public static final String JOBS = "polystack_jobs";
    public static final String DEPLOYMENTS = "polystack_deployments";

    private final Map<String, Set<CompletableFuture<Void>>> waiters = new ConcurrentHashMap<>();
    private volatile boolean running;
    private Thread listener;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    Optional<String> user;

    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    @Inject
    EntityManager entityManager;

    @Inject
    TransactionSynchronizationRegistry transactions;

    @Inject
    Autocommit autocommit;

    void start(@Observes StartupEvent event) {
        running = true;
        listener = new Thread(this::listen, "polystack-notifications");
        listener.setDaemon(true);
        listener.start();
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        if (listener != null) {
            listener.interrupt();
        }
    }

    /**
     * Sends a notification when the current transaction commits, and wakes this replica's own waiters as soon as
     * it has committed: they need not wait for PostgreSQL's notification to come back to the listener (a few
     * milliseconds, more when the listener's thread waits for a core). Other replicas learn of it from the
     * notification. A rollback sends nothing and wakes nobody.
     */
    void notifyOnCommit(String channel, String payload) {
        // a plain statement: a notification depends on nothing this transaction changed, so no flush before it
        InTransaction.execute(entityManager, "select pg_notify(?, ?)", channel, payload);
        AfterCommit.run(transactions, () -> signal(channel, payload));
    }

    /**
     * Notifies on {@code channel}, at once and outside any transaction, each payload that a query selects (its one
     * column, text), and wakes this replica's waiters of them: the query decides whom in the round trip that
     * notifies. For wake-ups that depend on nothing uncommitted.
     */
    public void notifyEach(String channel, String payloads, Object... parameters) {
        autocommit
                .all(
                        "select payload, pg_notify(?, payload) from (" + payloads + ") selected (payload)",
                        row -> row.getString(1),
                        InTransaction.joined(new Object[] {channel}, parameters))
                .forEach(payload -> signal(channel, payload));
    }

    /** A future completed by the next notification of {@code channel} with {@code payload}. Remove it when done. */
    public CompletableFuture<Void> await(String channel, String payload) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        waiters.computeIfAbsent(channel + ":" + payload, k -> ConcurrentHashMap.newKeySet())
                .add(future);
        return future;
    }

    public void forget(String channel, String payload, CompletableFuture<Void> future) {
        waiters.computeIfPresent(channel + ":" + payload, (k, set) -> {
            set.remove(future);
            return set.isEmpty() ? null : set;
        });
    }

    /** Wakes local waiters directly (used when this replica made the change itself). */
    void signal(String channel, String payload) {
        Set<CompletableFuture<Void>> woken = waiters.remove(channel + ":" + payload);
        if (woken != null) {
            woken.forEach(f -> f.complete(null));
        }
    }

    private void signalAll() {
        for (String key : Set.copyOf(waiters.keySet())) {
            Set<CompletableFuture<Void>> woken = waiters.remove(key);
            if (woken != null) {
                woken.forEach(f -> f.complete(null));
            }
        }
    }

    private void listen() {
        while (running) {
            try (Connection connection = DriverManager.getConnection(url, user.orElse(null), password.orElse(""))) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + JOBS);
                    statement.execute("LISTEN " + DEPLOYMENTS);
                }
                // anything sent while not listening is lost: let every waiter look again
                signalAll();
                PGConnection pg = connection.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(1000);
                    if (notifications != null) {
                        for (PGNotification notification : notifications) {
                            signal(notification.getName(), notification.getParameter());
                        }
                    }
                }
            } catch (SQLException e) {
                if (running) {
                    LOG.warnf("Listening for notifications failed (%s); retrying in 1 s", e.getMessage());
                    sleep();
                }
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
