package dev.polystack.platform.common.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EntityTagsTest {

    @Test
    void aTagNamesTheReleaseThatMadeTheRepresentation() {
        // an upgrade may change a representation without a migration: a client's kept answer must not stay current
        assertThat(EntityTags.ofRelease("0.1.0 2026-12-01T10:00:00Z", "graph", "e", "d"))
                .isNotEqualTo(EntityTags.ofRelease("0.1.0 2026-12-05T10:00:00Z", "graph", "e", "d"))
                .isNotEqualTo(EntityTags.ofRelease("0.2.0 2026-12-01T10:00:00Z", "graph", "e", "d"));
        assertThat(EntityTags.of("graph", "e", "d"))
                .isEqualTo(EntityTags.ofRelease(EntityTags.RELEASE, "graph", "e", "d"));
    }

    @Test
    void theReleaseIsTheBuildsVersionAndTime() {
        assertThat(EntityTags.RELEASE)
                .as("written into the jar by the build (polystack-release.properties)")
                .matches("\\d+\\.\\d+\\.\\d+\\S* \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");
    }
}
