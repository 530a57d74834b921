package dev.polystack.platform.envtype;

import dev.polystack.platform.common.web.Slug;
import jakarta.validation.constraints.Size;

public record CreateEnvTypeRequest(@Slug String id, @Size(max = 1000) String description) {
}
