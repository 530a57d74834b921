package dev.polystack.platform.environment;

import dev.polystack.platform.common.web.Slug;

public record CreateEnvironmentRequest(@Slug String id, @Slug String envTypeId) {
}
