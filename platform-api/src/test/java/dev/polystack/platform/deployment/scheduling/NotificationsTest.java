package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A change this replica commits wakes its own waiters as the commit returns, not when PostgreSQL's
 * notification comes back to its listener; other replicas still learn of it from the notification.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class NotificationsTest {

    @Inject
    Notifications notifications;

    @Inject
    DataSource dataSource;

    /**
     * A channel this replica's listener does not listen to: on the engine's channels the notification can reach the
     * listener between PostgreSQL's commit and the committing thread's wake-up, and the listener then wakes the
     * waiter instead (as it should: either wakes it). Here only the commit itself can.
     */
    private static final String UNHEARD = "polystack_test_unheard";

    @Test
    void aCommitWakesThisReplicasWaitersBeforeItsCommitReturnsAndStillNotifiesTheOthers() throws Exception {
        String payload = UUID.randomUUID().toString();
        CompletableFuture<Void> waiter = notifications.await(UNHEARD, payload);
        // the thread that wakes it runs this (the listener's thread, when the notification woke it)
        AtomicReference<String> wokenOn = new AtomicReference<>();
        waiter.thenRun(() -> wokenOn.set(Thread.currentThread().getName()));
        // another replica: a connection of its own that listens
        try (Connection other = dataSource.getConnection()) {
            try (Statement listen = other.createStatement()) {
                listen.execute("LISTEN " + UNHEARD);
            }
            QuarkusTransaction.requiringNew().run(() -> notifications.notifyOnCommit(UNHEARD, payload));
            assertThat(wokenOn.get())
                    .as("woken by the commit itself, on the committing thread")
                    .isEqualTo(Thread.currentThread().getName());
            List<String> received = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!received.contains(payload) && System.nanoTime() < deadline) {
                PGNotification[] arrived = other.unwrap(PGConnection.class).getNotifications(500);
                if (arrived != null) {
                    for (PGNotification notification : arrived) {
                        received.add(notification.getParameter());
                    }
                }
            }
            assertThat(received)
                    .as("the notification other replicas listen for")
                    .contains(payload);
            try (Statement unlisten = other.createStatement()) {
                unlisten.execute("UNLISTEN " + UNHEARD);
            }
        }
    }

    @Test
    void aRollbackWakesNobody() throws Exception {
        String payload = UUID.randomUUID().toString();
        CompletableFuture<Void> waiter = notifications.await(Notifications.JOBS, payload);
        QuarkusTransaction.begin();
        notifications.notifyOnCommit(Notifications.JOBS, payload);
        QuarkusTransaction.rollback();
        Thread.sleep(500);
        assertThat(waiter).isNotDone();
        notifications.forget(Notifications.JOBS, payload, waiter);
    }
}
