package dev.polystack.runner;

import dev.polystack.runner.protocol.LogBatch;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class LogShipperTest {

    /**
     * The last lines of a job are often in a batch the periodic flush is sending when the job ends.
     * Closing must wait for that send, not interrupt it: the HTTP client gives up on an interrupted
     * send, and retries with the interrupt still set fail at once, so the batch was dropped.
     */
    @Test
    void closingWhileABatchIsBeingSentLosesNoLine() throws Exception {
        List<LogBatch> delivered = new CopyOnWriteArrayList<>();
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        LogShipper.Sender slow = (job, batch) -> {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted"); // as the JDK's HTTP client does
            }
            sending.countDown();
            try {
                if (!release.await(10, TimeUnit.SECONDS)) {
                    throw new IOException("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while sending");
            }
            delivered.add(batch);
        };
        LogShipper shipper = new LogShipper(slow, UUID.randomUUID());
        shipper.note("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
        assertThat(sending.await(5, TimeUnit.SECONDS))
                .as("the periodic flush started sending")
                .isTrue();
        shipper.note("the job's last line");

        Thread closer = new Thread(shipper::close);
        closer.start();
        Thread.sleep(300);
        release.countDown();
        closer.join(10_000);

        assertThat(delivered)
                .extracting(b -> b.lines().get(0).message())
                .containsExactly("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", "the job's last line");
        assertThat(delivered).extracting(LogBatch::batch).containsExactly(0, 1);
    }
}
