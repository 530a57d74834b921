package dev.polystack.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The process handling, with real child processes standing in for a slow tofu. */
class TofuProcessTest {

    @TempDir
    Path dir;

    private Path script(String body) throws Exception {
        Path script = dir.resolve("fake-tofu");
        Files.writeString(script, "#!/bin/bash\n" + body + "\n");
        script.toFile().setExecutable(true);
        return script;
    }

    @Test
    void streamsEveryLineAndReportsTheExitCode() throws Exception {
        Path tofu = script("echo one; echo two >&2; echo \"$MY_VAR\"; exit 3");
        List<String> lines = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Tofu.Outcome outcome = new Tofu(tofu.toString(), dir, Map.of("MY_VAR", "three"), Duration.ofSeconds(5))
                .run(List.of("plan"), lines::add, errors::add, true, () -> false);
        assertThat(outcome.exitCode()).isEqualTo(3);
        assertThat(outcome.succeeded()).isFalse();
        assertThat(lines).containsExactly("one", "three");
        assertThat(errors).containsExactly("two");
        assertThat(outcome.stdout()).isEqualTo("one\nthree\n");
    }

    @Test
    void aCancelSendsSigintAndAGracefulExitIsWaitedFor() throws Exception {
        Path marker = dir.resolve("interrupted");
        Path tofu = script(
                "trap 'echo interrupted > " + marker + "; exit 1' INT\nfor i in $(seq 1 300); do sleep 0.1; done");
        AtomicBoolean cancel = new AtomicBoolean();
        new Thread(() -> {
                    sleep(500);
                    cancel.set(true);
                })
                .start();
        Tofu.Outcome outcome = new Tofu(tofu.toString(), dir, Map.of(), Duration.ofSeconds(10))
                .run(List.of("apply"), null, null, false, cancel::get);
        assertThat(outcome.cancelled()).isTrue();
        assertThat(Files.readString(marker).trim()).isEqualTo("interrupted");
    }

    @Test
    void aProcessThatIgnoresSigintIsKilledWithItsChildrenAfterTheGracePeriod() throws Exception {
        Path pidFile = dir.resolve("child.pid");
        Path tofu = script("trap '' INT\nsleep 300 &\necho $! > " + pidFile + "\nwait");
        AtomicBoolean cancel = new AtomicBoolean();
        new Thread(() -> {
                    sleep(700);
                    cancel.set(true);
                })
                .start();
        long start = System.nanoTime();
        Tofu.Outcome outcome = new Tofu(tofu.toString(), dir, Map.of(), Duration.ofMillis(500))
                .run(List.of("apply"), null, null, false, cancel::get);
        assertThat(outcome.cancelled()).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        long child = Long.parseLong(Files.readString(pidFile).trim());
        sleep(200);
        assertThat(running(child)).as("the child was killed too").isFalse();
    }

    @Test
    void aMissingBinarySaysHowToFixIt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new Tofu("/no/such/tofu", dir, Map.of(), Duration.ofSeconds(1))
                                .run(List.of("init"), null, null, false, () -> false))
                .hasMessageContaining("install OpenTofu >= 1.6");
    }

    /** Alive and not a zombie (a killed orphan stays a zombie where PID 1 does not reap). */
    private static boolean running(long pid) throws java.io.IOException {
        Path stat = Path.of("/proc/" + pid + "/stat");
        if (!Files.exists(stat)) {
            return false;
        }
        String content = Files.readString(stat);
        char state = content.charAt(content.lastIndexOf(')') + 2);
        return state != 'Z' && state != 'X';
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
