package dev.polystack.platform.common.sql;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/** Work that must follow the current transaction's commit, and never happen if it rolls back. */
public final class AfterCommit {

    private AfterCommit() {}

    /**
     * Runs {@code task} on the committing thread once the current transaction has committed. The transaction
     * has ended by then: a task that needs one, or takes long, hands its work to another thread.
     */
    public static void run(TransactionSynchronizationRegistry transactions, Runnable task) {
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {}

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    task.run();
                }
            }
        });
    }
}
