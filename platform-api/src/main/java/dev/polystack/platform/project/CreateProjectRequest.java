package dev.polystack.platform.project;

import dev.polystack.platform.common.web.Slug;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

public record CreateProjectRequest(@Slug String id, @NotBlank @Size(max = 200) String name) {
}
