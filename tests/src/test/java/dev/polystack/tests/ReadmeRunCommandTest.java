package dev.polystack.tests;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The control plane that the tests and benchmarks start runs with the JVM options of the README's run
 * command, so that the figures in BENCHMARKS.md are those of what a reader runs.
 */
class ReadmeRunCommandTest {

    @Test
    void theOptionsAreThoseBetweenJavaAndJar() {
        assertThat(PlatformProcess.jvmOptions("./mvnw -B -q package && java -jar app/quarkus-run.jar"))
                .isEmpty();
        assertThat(PlatformProcess.jvmOptions(
                        "# 1. run\n./mvnw package && java -Xmx1g -XX:+UseSerialGC -jar app/quarkus-run.jar serve\n"))
                .containsExactly("-Xmx1g", "-XX:+UseSerialGC");
        assertThatThrownBy(() -> PlatformProcess.jvmOptions("./mvnw quarkus:dev"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no `java … -jar` command");
    }

    @Test
    void theReadmeRunCommandCapsTheHeap() throws IOException {
        // the memory targets are measured with the README's heap cap: without one the JVM takes a quarter of
        // the machine's memory, and the idle and after-load figures mean nothing for the packaged jar
        assertThat(PlatformProcess.readmeJvmOptions()).anyMatch(option -> option.startsWith("-Xmx"));
    }
}
