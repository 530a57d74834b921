package dev.polystack.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkRootTest {

    @TempDir
    Path dir;

    @Test
    void anAgentRemovesWhatAKilledAgentLeftAndKeepsTheDirectoryToItself() throws Exception {
        Path work = dir.resolve("work");
        Path leftover = Files.createDirectories(work.resolve("6f1c1b52-0000-4000-8000-000000000001/module"));
        Files.writeString(leftover.getParent().resolve("polystack.tfplan"), "plan");
        Files.writeString(work.resolve("stray-file"), "x");
        try (WorkRoot root = WorkRoot.claim(work)) {
            assertThat(root.removeLeftovers()).containsExactly("6f1c1b52-0000-4000-8000-000000000001", "stray-file");
            try (var entries = Files.list(work)) {
                assertThat(entries.map(p -> p.getFileName().toString())).containsExactly(WorkRoot.LOCK_FILE);
            }
            assertThatThrownBy(() -> WorkRoot.claim(work))
                    .hasMessageContaining("another agent process uses the work directory");
        }
        try (WorkRoot again = WorkRoot.claim(work)) {
            assertThat(again.removeLeftovers()).isEmpty();
        }
    }
}
