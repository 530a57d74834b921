package dev.polystack.platform.environment;

import dev.polystack.platform.common.web.Slug;

public record UpdateEnvironmentRequest(@Slug String envTypeId, Long version) {
}
